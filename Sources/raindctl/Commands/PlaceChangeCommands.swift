import RainCore

struct RemoveCommand: ClientCommand {
    static let spec = CommandSpec(
        name: "remove", summary: Localization.marked("remove a saved place (not the selected one)"),
        synopses: ["PLACE"],
        description: Localization.marked(
            """
            Removes a saved place, named by its id or its name. The selected place
            cannot be removed: select another one first with set-location.
            """),
        options: [], argument: PlaceArgument.spec)

    let place: String

    init(arguments: ParsedArguments) throws(ClientError) {
        place = try PlaceArgument.single(arguments)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        try PlaceArgument.change(
            RemoveLocationCall.self, place, session: session,
            done: { tr("Removed {place} ({id})", ["place": $0, "id": $1]) })
    }
}

struct SetLocationCommand: ClientCommand {
    static let spec = CommandSpec(
        name: "set-location",
        summary: Localization.marked("select a saved place: the one status bars and now/hourly/daily show"),
        synopses: ["PLACE"],
        description: Localization.marked(
            """
            Makes a saved place (by id or name) the selected one: the place status
            bars, now, hourly and daily show. Its weather is fetched if it is not
            fresh.
            """),
        options: [], argument: PlaceArgument.spec)

    let place: String

    init(arguments: ParsedArguments) throws(ClientError) {
        place = try PlaceArgument.single(arguments)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        try PlaceArgument.change(
            SelectLocationCall.self, place, session: session,
            done: { tr("Selected {place} ({id})", ["place": $0, "id": $1]) })
    }
}

struct UnitsCommand: ClientCommand {
    /// What `units` offers: the wire names, then the two words people type most.
    static let names = UnitSystem.allCases.map(\.rawValue) + ["fahrenheit", "celsius"]

    static let spec = CommandSpec(
        name: "units",
        summary: Localization.marked("show or set the unit system: us, si, ca, uk (or fahrenheit, celsius)"),
        // Written out: joining `names` would cost every command's start the first use of a generic.
        synopses: ["[us|si|ca|uk|fahrenheit|celsius]"],
        description: Localization.marked(
            """
            Without an argument, shows the unit system. With one, sets it:
              us   °F, mph, inches        si   °C, m/s, mm
              ca   °C, km/h, mm           uk   °C, mph, mm
            fahrenheit means us and celsius means si.
            """),
        options: [],
        argument: ArgumentSpec(
            value: "UNITS", source: .words(names), summary: Localization.marked("unit system"), joinsWords: false))

    let units: UnitSystem?

    init(arguments: ParsedArguments) throws(ClientError) {
        guard let word = arguments.positionals.first else {
            units = nil
            return
        }
        guard let units = UnitSystem(userInput: word) else {
            throw .usage(
                tr("units: '{word}' is not a unit system; use us, si, ca, uk, fahrenheit or celsius", ["word": word]))
        }
        self.units = units
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        guard let units else {
            Output.line(try client.call(GetStatusCall.self, NoParameters()).status.units.rawValue)
            return
        }
        let reply = try client.call(SetSettingsCall.self, .init(units: units.rawValue))
        Output.line(tr("Units: {units}", ["units": reply.settings.units.rawValue]))
    }
}

/// The PLACE argument: what remove and set-location take, and now, hourly,
/// daily and refresh (the selected place when it is not given).
enum PlaceArgument {
    /// A saved place, by id or by name (which may be several words).
    static let spec = ArgumentSpec(
        value: "PLACE", source: .places, summary: Localization.marked("saved place"), joinsWords: true)

    static func single(_ arguments: ParsedArguments) throws(ClientError) -> String {
        guard let place = arguments.joinedPositionals else {
            throw .usage(
                tr("{command}: name a saved place by id or name (see 'raindctl list')", ["command": arguments.command]))
        }
        return place
    }

    /// Calls a method that acts on one saved place and says what was done to which.
    static func change<Call: WeatherCall>(
        _ call: Call.Type, _ place: String, session: ClientSession, done: (String, String) -> String
    ) throws(ClientError) where Call.Parameters == PlaceReference, Call.Reply == LocationReply {
        let location = try session.connect().call(call, PlaceReference(id: place)).location
        Output.line(done(location.localizedDisplayName, location.id.rawValue))
    }
}
