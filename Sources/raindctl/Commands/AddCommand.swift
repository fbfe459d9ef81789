import RainCore

struct AddCommand: ClientCommand {
    static let name = "add"
    static let summary = "save a place by name, by coordinates, or the current position"
    static let help = """
        Usage: raindctl add PLACE [--json]
               raindctl add --coords LAT,LON [--name NAME] [--json]
               raindctl add --current [--json]

        Saves a place. PLACE is a name ("Paris", "Portland, OR", "London, Canada",
        "Paris, US-TX"); when several places match, raind lists them so you can
        be more precise. --coords takes decimal degrees (north and east positive);
        without --name the nearest known place names it. --current uses the
        machine's position. Saving a place that is already saved changes nothing.
        The first place saved becomes the selected one.
        """

    enum Target {
        case query(String)
        case coordinates(Double, Double, name: String?)
        case current
    }

    let target: Target
    let json: Bool

    init(arguments: ArgumentReader) throws(ClientError) {
        var arguments = arguments
        json = arguments.flag("--json")
        let current = arguments.flag("--current")
        let coords = try arguments.option("--coords")
        let name = try arguments.option("--name")
        let words = try arguments.positionals()
        switch (coords, current, words.isEmpty) {
        case (let coords?, false, true):
            guard let (latitude, longitude) = Coordinates.parse(coords) else {
                throw .usage("add: --coords takes LAT,LON in decimal degrees, like --coords 48.85,2.35 (got '\(coords)')")
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw .usage("add: latitude must be within -90...90 and longitude within -180...180 (got '\(coords)')")
            }
            target = .coordinates(latitude, longitude, name: name)
        case (nil, true, true):
            guard name == nil else { throw .usage("add: --name goes with --coords") }
            target = .current
        case (nil, false, false):
            guard name == nil else { throw .usage("add: --name goes with --coords") }
            target = .query(words.joined(separator: " "))
        default:
            throw .usage("add: give one of PLACE, --coords LAT,LON or --current (see 'raindctl add --help')")
        }
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let parameters: AddLocationCall.Parameters
        switch target {
        case .query(let query): parameters = .init(query: query)
        case .coordinates(let latitude, let longitude, let name):
            parameters = .init(latitude: latitude, longitude: longitude, name: name)
        case .current: parameters = .init(current: true)
        }
        let reply = try session.connect().call(AddLocationCall.self, parameters)
        if json {
            Output.line(reply.json.serialized())
            return
        }
        let (location, added, approximate) = (reply.location, reply.added, reply.approximate)
        Output.line((added ? "Added " : "Already saved: ") + "\(location.displayName) as \(location.id)"
            + (approximate ? " (approximate position)" : ""))
    }
}
