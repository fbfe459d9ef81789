import RainCore

struct SearchCommand: ClientCommand {
    static let limitOption = OptionSpec(
        "--limit", value: "N", summary: Localization.marked("at most N candidates (default 10, at most 100)"))
    static let jsonOption = OptionSpec(
        "--json", summary: Localization.marked("print the candidates as one JSON object"),
        help: Localization.marked("print {\"candidates\": [...]} as one JSON object"))
    static let spec = CommandSpec(
        name: "search", summary: Localization.marked("find places by name in raind's place data"),
        synopses: ["QUERY [--limit N] [--json]"],
        description: Localization.marked(
            """
            Lists the places matching QUERY, best first, with what tells them apart
            (region, country, population) and their GeoNames id, which 'raindctl
            add' accepts. QUERY may name a region or country after a comma:
            "Portland, OR", "London, Canada", "Paris, US-TX".
            """),
        options: [limitOption, jsonOption],
        argument: ArgumentSpec(
            value: "QUERY", source: .text, summary: Localization.marked("place name"), joinsWords: true))

    let query: String
    let limit: Int
    let json: Bool

    init(arguments: ParsedArguments) throws(ClientError) {
        json = arguments.flag(Self.jsonOption)
        let limitText = arguments.value(Self.limitOption)
        if let limitText {
            guard let limit = Int(limitText), (1...100).contains(limit) else {
                throw .usage(
                    tr("search: --limit takes a whole number from 1 to 100 (got '{value}')", ["value": limitText]))
            }
            self.limit = limit
        } else {
            limit = 10
        }
        guard let query = arguments.joinedPositionals else {
            throw .usage(tr("search: give a place name (see 'raindctl search --help')"))
        }
        self.query = query
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let reply = try session.connect().call(SearchPlacesCall.self, .init(query: query, limit: limit))
        if json {
            Output.json(reply)
            return
        }
        let candidates = reply.candidates
        if candidates.isEmpty {
            Output.line(tr("No place matches '{query}'.", ["query": query]))
            return
        }
        let rows = candidates.map { candidate in
            [
                candidate.name, candidate.region, candidate.countryCode,
                candidate.population > 0 ? PlaceWording.population(candidate.population) : "",
                candidate.source.identity ?? "",
            ]
        }
        for line in Output.table(rows) { Output.line(line) }
    }
}
