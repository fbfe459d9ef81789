import RainCore

struct AddCommand: ClientCommand {
    static let coordsOption = OptionSpec(
        // l10n: the value's name is typed as it is
        "--coords", value: "LAT,LON",
        summary: Localization.marked("save the place at LAT,LON (decimal degrees)"), listed: false)
    static let nameOption = OptionSpec(
        "--name", value: "NAME", summary: Localization.marked("name the place (with --coords or --current)"),
        listed: false)
    static let currentOption = OptionSpec(
        "--current", summary: Localization.marked("save the machine's position"), listed: false)
    static let followOption = OptionSpec(
        "--follow", summary: Localization.marked("the place follows you (with --current)"), listed: false)
    static let jsonOption = OptionSpec("--json", summary: Localization.marked("print raind's reply"), listed: false)
    static let spec = CommandSpec(
        name: "add", summary: Localization.marked("save a place by name, by coordinates, or the current position"),
        // l10n: synopses and value names are typed as they are
        synopses: [
            "PLACE [--json]", "--coords LAT,LON [--name NAME] [--json]", "--current [--name NAME] [--json]",
            "--current --follow [--json]",
        ],
        description: Localization.marked(
            """
            Saves a place. PLACE is a name ("Paris", "Portland, OR", "London, Canada",
            "Paris, US-TX"); when several places match, raind lists them so you can
            be more precise. --coords takes decimal degrees (north and east positive);
            without --name the nearest known place names it. --current uses the
            machine's position (GeoClue, else an estimate from the time zone).
            --current --follow saves the place that follows you: raind keeps it at
            the machine's position (GeoClue, else the time zone), renaming it and
            fetching its weather when you reach another town. Only one place
            follows; a new --follow takes the flag from the previous one, which
            stays where it was.
            Saving a place that is already saved changes nothing; a place given its
            own --name is saved even next to a saved place of another name.
            The first place saved becomes the selected one.
            """),
        options: [coordsOption, nameOption, currentOption, followOption, jsonOption],
        argument: ArgumentSpec(
            value: "PLACE", source: .text, summary: Localization.marked("place name"), joinsWords: true))

    enum Target {
        case query(String)
        case coordinates(Double, Double, name: String?)
        case current(name: String?, follow: Bool)
    }

    let target: Target
    let json: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
        let current = arguments.flag(Self.currentOption)
        let follow = arguments.flag(Self.followOption)
        let coords = arguments.value(Self.coordsOption)
        let name = arguments.value(Self.nameOption)
        let words = arguments.positionals
        if follow, !current { throw .usage(tr("add: --follow goes with --current (raindctl add --current --follow)")) }
        switch (coords, current, words.isEmpty) {
        case (let coords?, false, true):
            guard let (latitude, longitude) = Coordinates.parse(coords) else {
                throw .usage(
                    tr(
                        "add: --coords takes LAT,LON in decimal degrees, like --coords 48.85,2.35 (got '{value}')",
                        ["value": coords]))
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw .usage(
                    tr(
                        "add: latitude must be within -90...90 and longitude within -180...180 (got '{value}')",
                        ["value": coords]))
            }
            target = .coordinates(latitude, longitude, name: name)
        case (nil, true, true):
            if follow, name != nil {
                throw .usage(
                    tr(
                        "add: --follow cannot go with --name: the place that follows you is named after the town it is in"
                    ))
            }
            target = .current(name: name, follow: follow)
        case (nil, false, false):
            guard name == nil else { throw .usage(tr("add: --name goes with --coords or --current")) }
            let query = words.joined(separator: " ").trimmingSpaces()
            guard !query.isEmpty else { throw .usage(tr("add: the place name is empty; give a name like 'Paris'")) }
            target = .query(query)
        default:
            throw .usage(tr("add: give one of PLACE, --coords LAT,LON or --current (see 'raindctl add --help')"))
        }
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let parameters: AddLocationCall.Parameters
        switch target {
        case .query(let query): parameters = .init(query: query)
        case .coordinates(let latitude, let longitude, let name):
            parameters = .init(latitude: latitude, longitude: longitude, name: name)
        case .current(let name, let follow): parameters = .init(name: name, current: true, follow: follow ? true : nil)
        }
        let reply = try session.connect().call(AddLocationCall.self, parameters)
        if json {
            Output.json(reply)
            return
        }
        let location = reply.location
        Output.line(
            (reply.added
                ? tr("Added {place} as {id}", ["place": location.localizedDisplayName, "id": location.id.rawValue])
                : tr(
                    "Already saved: {place} as {id}",
                    ["place": location.localizedDisplayName, "id": location.id.rawValue]))
                + (reply.approximate ? " " + tr("(approximate position)") : "")
                + (location.isFollowing ? tr("; it follows you") : ""))
        if let note = reply.note { Output.line(note) }
        if reply.added, case .coordinates(_, _, name: .some) = target {
            try Self.mentionNeighbours(of: location, session: session)
        }
    }

    /// Says which saved places lie within a kilometre of one just saved under its own name.
    static func mentionNeighbours(of location: Location, session: ClientSession) throws(ClientError) {
        let saved = try session.connect().call(ListLocationsCall.self, NoParameters()).locations
        for other in saved where other.id != location.id {
            let distance = GeoDistance.kilometres(
                latitude1: location.latitude, longitude1: location.longitude, latitude2: other.latitude,
                longitude2: other.longitude)
            if distance < 1 {
                Output.line(
                    tr(
                        "{place} ({id}) is saved {metres} m away; both are kept",
                        [
                            "place": other.name, "id": other.id.rawValue,
                            "metres": String(Int((distance * 1000).rounded())),
                        ]))
            }
        }
    }
}
