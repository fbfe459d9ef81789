import RainCore

struct RemoveCommand: ClientCommand {
    static let name = "remove"
    static let summary = "remove a saved place (not the selected one)"
    static let help = """
        Usage: raindctl remove PLACE

        Removes a saved place, named by its id or its name. The selected place
        cannot be removed: select another one first with set-location.
        """

    let place: String

    init(arguments: ArgumentReader) throws(ClientError) {
        place = try PlaceArgument.single(arguments)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        try PlaceArgument.change(RemoveLocationCall.self, place, session: session, done: "Removed")
    }
}

struct SetLocationCommand: ClientCommand {
    static let name = "set-location"
    static let summary = "select a saved place: the one status bars and now/hourly/daily show"
    static let help = """
        Usage: raindctl set-location PLACE

        Makes a saved place (by id or name) the selected one: the place status
        bars, now, hourly and daily show. Its weather is fetched if it is not
        fresh.
        """

    let place: String

    init(arguments: ArgumentReader) throws(ClientError) {
        place = try PlaceArgument.single(arguments)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        try PlaceArgument.change(SelectLocationCall.self, place, session: session, done: "Selected")
    }
}

struct UnitsCommand: ClientCommand {
    static let name = "units"
    static let summary = "show or set the unit system: us, si, ca, uk (or fahrenheit, celsius)"
    static let help = """
        Usage: raindctl units [us|si|ca|uk|fahrenheit|celsius]

        Without an argument, shows the unit system. With one, sets it:
          us   °F, mph, inches        si   °C, m/s, mm
          ca   °C, km/h, mm           uk   °C, mph, mm
        fahrenheit means us and celsius means si.
        """

    let units: UnitSystem?

    init(arguments: ArgumentReader) throws(ClientError) {
        let words = try arguments.positionals()
        switch words.count {
        case 0: units = nil
        case 1:
            guard let units = UnitSystem(userInput: words[0]) else {
                throw .usage("units: '\(words[0])' is not a unit system; use us, si, ca, uk, fahrenheit or celsius")
            }
            self.units = units
        default: throw .usage("units: takes one unit system (see 'raindctl units --help')")
        }
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let client = try session.connect()
        guard let units else {
            Output.line(try client.call(GetStatusCall.self, NoParameters()).status.units.rawValue)
            return
        }
        let reply = try client.call(SetSettingsCall.self, .init(units: units.rawValue))
        Output.line("Units: \(reply.settings.units.rawValue)")
    }
}

/// The one PLACE argument of remove and set-location.
enum PlaceArgument {
    static func single(_ arguments: ArgumentReader) throws(ClientError) -> String {
        let words = try arguments.positionals()
        guard !words.isEmpty else {
            throw .usage("\(arguments.command): name a saved place by id or name (see 'raindctl list')")
        }
        return words.joined(separator: " ")
    }

    /// Calls a method that acts on one saved place and says what was done to which.
    static func change<Call: WeatherCall>(
        _ call: Call.Type, _ place: String, session: ClientSession, done: String
    ) throws(ClientError) where Call.Parameters == PlaceReference, Call.Reply == LocationReply {
        let location = try session.connect().call(call, PlaceReference(id: place)).location
        Output.line("\(done) \(location.displayName) (\(location.id))")
    }
}
