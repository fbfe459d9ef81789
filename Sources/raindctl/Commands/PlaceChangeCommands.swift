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
        try PlaceArgument.change(.removeLocation, place, session: session, done: "Removed")
    }
}

struct SetLocationCommand: ClientCommand {
    static let name = "set-location"
    static let summary = "select a saved place: the one status bars and now/hourly/daily show"
    static let help = """
        Usage: raindctl set-location PLACE

        Makes a saved place (by id or name) the selected one, as tapping a place
        did in the app. Its weather is fetched if it is not fresh.
        """

    let place: String

    init(arguments: ArgumentReader) throws(ClientError) {
        place = try PlaceArgument.single(arguments)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        try PlaceArgument.change(.selectLocation, place, session: session, done: "Selected")
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
            let status = try client.call(.getStatus)
            Output.line(status["status"]?["units"]?.stringValue ?? "?")
            return
        }
        let reply = try client.call(.setSettings, ["units": .string(units.rawValue)].asObject)
        Output.line("Units: \(reply["settings"]?["units"]?.stringValue ?? units.rawValue)")
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
    static func change(
        _ method: WeatherMethod, _ place: String, session: ClientSession, done: String
    ) throws(ClientError) {
        let reply = try session.connect().call(method, ["id": .string(place)].asObject)
        Output.line("\(done) \(describe(reply["location"]))")
    }

    static func describe(_ value: JSON?) -> String {
        guard let value, let location = try? Location(json: value) else { return "the place" }
        return "\(location.displayName) (\(location.id))"
    }
}

extension Dictionary where Key == String, Value == JSON {
    var asObject: JSONObject {
        var object = JSONObject()
        for key in keys.sorted() { object[key] = self[key] }
        return object
    }
}
