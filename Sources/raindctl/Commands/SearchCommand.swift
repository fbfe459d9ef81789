import RainCore

struct SearchCommand: ClientCommand {
    static let name = "search"
    static let summary = "find places by name in raind's place data"
    static let help = """
        Usage: raindctl search QUERY [--limit N] [--json]

        Lists the places matching QUERY, best first, with what tells them apart
        (region, country, population) and their GeoNames id, which 'raindctl
        add' accepts. QUERY may name a region or country after a comma:
        "Portland, OR", "London, Canada", "Paris, US-TX".

          --limit N   at most N candidates (default 10, at most 100)
          --json      print {"candidates": [...]} as one JSON object
        """

    let query: String
    let limit: Int
    let json: Bool

    init(arguments: ArgumentReader) throws(ClientError) {
        var arguments = arguments
        json = arguments.flag("--json")
        let limitText = try arguments.option("--limit")
        if let limitText {
            guard let limit = Int(limitText), (1...100).contains(limit) else {
                throw .usage("search: --limit takes a whole number from 1 to 100 (got '\(limitText)')")
            }
            self.limit = limit
        } else {
            limit = 10
        }
        let words = try arguments.positionals()
        guard !words.isEmpty else { throw .usage("search: give a place name (see 'raindctl search --help')") }
        query = words.joined(separator: " ")
    }

    func run(_ session: ClientSession) throws(ClientError) {
        let reply = try session.connect().call(SearchPlacesCall.self, .init(query: query, limit: limit))
        if json {
            Output.json(reply)
            return
        }
        let candidates = reply.candidates
        if candidates.isEmpty {
            Output.line("No place matches '\(query)'.")
            return
        }
        let rows = candidates.map { candidate in
            [
                candidate.name, candidate.region, candidate.countryCode,
                candidate.population > 0 ? "pop. \(PopulationText.grouped(candidate.population))" : "",
                candidate.source.identity ?? "",
            ]
        }
        for line in Output.table(rows) { Output.line(line) }
    }
}
