import RainCore

struct ListCommand: ClientCommand {
    static let jsonOption = OptionSpec(
        "--json", summary: Localization.marked("print the places and the selected one as one JSON object"),
        help: Localization.marked("print {\"locations\": [...], \"selected\": ID} as one JSON object"))
    static let spec = CommandSpec(
        name: "list", summary: Localization.marked("list the saved places; * marks the selected one"),
        synopses: ["[--json]"],
        description: Localization.marked(
            """
            Lists the saved places sorted by name, with their ids (use an id or a
            name wherever a PLACE is asked for). The selected place is marked *;
            the place that follows you says "(follows you)".
            """),
        options: [jsonOption], argument: nil)

    let json: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let reply = try session.connect().call(ListLocationsCall.self, NoParameters())
        if json {
            Output.json(reply)
            return
        }
        let selected = reply.selected
        let locations = reply.locations
        if locations.isEmpty {
            Output.line(tr("No saved places. Add one: raindctl add PLACE (or --coords LAT,LON --name NAME)"))
            return
        }
        let rows = locations.map { location in
            [
                location.id == selected ? "*" : " ", location.id.rawValue, location.localizedDisplayName,
                Coordinates.format(latitude: location.latitude, longitude: location.longitude),
            ]
                + (location.isFollowing ? [tr("(follows you)")] : [])
        }
        for line in Output.table(rows) { Output.line(line) }
    }
}

enum Coordinates {
    /// "48.8534, 2.3488"
    static func format(latitude: Double, longitude: Double) -> String {
        "\(fixed(latitude, 4)), \(fixed(longitude, 4))"
    }

    /// Exactly `digits` decimals, so a column of coordinates lines up ("2.3000").
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let units = Int((abs(value) * Double(scale)).rounded())
        let fraction = String(units % scale)
        let sign = value < 0 && units != 0 ? "-" : ""
        return sign + String(units / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// Parses "LAT,LON".
    static func parse(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",").map { String($0).trimmingSpaces() }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        return (latitude, longitude)
    }
}
