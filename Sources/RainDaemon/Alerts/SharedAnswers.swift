import RainCore

/// The alert services' answers by URL, shared by the places that ask the
/// same question: MeteoAlarm's feed of a country, a CAP document that
/// every place of a feed names, neighbours on the request grid. One
/// request is in flight per URL, whoever asks; an answer is reused while
/// it is fresh (`freshFor`); with `conditional`, the last answer's
/// validators go with the next request, and a 304 gives its body again,
/// so every caller reads a whole answer. What is not asked for within
/// `keptFor` is forgotten, and the answers kept hold at most
/// `maximumBytes` together: past it the oldest go first (a feed naming
/// 50 new CAP documents of 4 MiB each poll would otherwise keep 200 MiB a
/// poll for two hours). An answer forgotten early costs a request, never
/// an alert: the watcher keeps what each document said for its place.
/// All on the loop.
final class SharedAnswers {
    /// An answer, and whether it came over the network now (counted by the
    /// caller whose request made it) and unchanged (a 304).
    struct Answer {
        var response: HTTPResponse
        var unchanged: Bool
    }

    typealias Completion = (Result<Answer, HTTPFailure>) -> Void

    private let http: any HTTPFetching
    private let later: (@escaping () -> Void) -> Void
    private let clock: () -> Double
    private let keptFor: Double
    private let maximumBytes: Int
    /// The last 200 of each URL, and when it was last answered or confirmed.
    private var kept: [String: (response: HTTPResponse, at: Double)] = [:] {
        didSet { keptBytes = kept.values.reduce(0) { $0 + Self.size(of: $1.response) } }
    }
    /// What the answers kept hold, in bytes (`size(of:)`).
    private(set) var keptBytes = 0

    /// The answers kept hold at most this many bytes together: four
    /// answers of the largest size raind reads (`UpstreamClient.maximumBodyBytes`),
    /// a dozen times what a country's feed and its documents weigh on a stormy day.
    static let maximumBytes = 4 * UpstreamClient.maximumBodyBytes
    /// The requests in flight by URL, with the callers waiting for them.
    private var inFlight: [String: Flight] = [:]
    private var nextTicket = 0

    final class Flight {
        var transfer: (any HTTPCancellable)?
        var waiting: [Int: Completion] = [:]
    }

    /// A caller's wait; cancelling it drops its completion, and the request
    /// when nobody else waits for it.
    final class Ticket: HTTPCancellable {
        weak var owner: SharedAnswers?
        let url: String
        let number: Int

        init(owner: SharedAnswers, url: String, number: Int) {
            self.owner = owner
            self.url = url
            self.number = number
        }

        func cancel() { owner?.drop(self) }
    }

    /// - Parameters:
    ///   - later: runs a closure on the loop after the current one (a reused answer is never given inside `fetch`).
    ///   - clock: the wall clock, Unix seconds.
    ///   - keptFor: seconds an answer is kept after it was last answered or confirmed.
    ///   - maximumBytes: what the answers kept may hold together.
    init(
        http: any HTTPFetching, later: @escaping (@escaping () -> Void) -> Void, clock: @escaping () -> Double,
        keptFor: Double = 2 * 3600, maximumBytes: Int = SharedAnswers.maximumBytes
    ) {
        self.http = http
        self.later = later
        self.clock = clock
        self.keptFor = keptFor
        self.maximumBytes = maximumBytes
    }

    /// The answer to `request`: one kept less than `freshFor`
    /// seconds ago, the one in flight, or a new request's. `counted` is
    /// called once for a request that reached the service, for the caller
    /// whose request it was: with its answer (any status), or nil when the
    /// transfer failed after it may have reached it (`UpstreamClient.neverReached`
    /// says which failures reached nobody and count nothing).
    func fetch(
        _ request: HTTPRequest, conditional: Bool, freshFor: Double,
        counted: @escaping (HTTPResponse?) -> Void, completion: @escaping Completion
    ) -> any HTTPCancellable {
        let now = clock()
        kept = kept.filter { now - $0.value.at < keptFor }
        let url = request.url
        nextTicket += 1
        let ticket = Ticket(owner: self, url: url, number: nextTicket)
        if let answer = kept[url], now - answer.at < freshFor, answer.at > staleBefore {
            // Delivered like an answer: after this call, unless cancelled first.
            pendingReuse[ticket.number] = completion
            later { [weak self] in
                guard let completion = self?.pendingReuse.removeValue(forKey: ticket.number) else { return }
                completion(.success(Answer(response: answer.response, unchanged: true)))
            }
            return ticket
        }
        if let flight = inFlight[url] {
            flight.waiting[ticket.number] = completion
            return ticket
        }
        let flight = Flight()
        flight.waiting[ticket.number] = completion
        inFlight[url] = flight
        var asked = request
        if conditional, let last = kept[url]?.response {
            if let etag = last[header: "etag"] { asked.headers["If-None-Match"] = etag }
            if let modified = last[header: "last-modified"] { asked.headers["If-Modified-Since"] = modified }
        }
        flight.transfer = http.fetch(asked) { [weak self] result in
            self?.answered(url, result, counted: counted)
        }
        return ticket
    }

    /// Reused answers not yet delivered, by ticket.
    private var pendingReuse: [Int: Completion] = [:]

    private func answered(_ url: String, _ result: Result<HTTPResponse, HTTPFailure>, counted: (HTTPResponse?) -> Void)
    {
        guard let flight = inFlight.removeValue(forKey: url) else { return }
        var outcome = result.map { Answer(response: $0, unchanged: false) }
        if case .failure(let failure) = result, !UpstreamClient.neverReached(failure) { counted(nil) }
        if case .success(let response) = result {
            counted(response)
            if response.status == 200 {
                keep(response, for: url)
            } else if response.status == 304, let last = kept[url] {
                keep(last.response, for: url)
                outcome = .success(Answer(response: last.response, unchanged: true))
            }
        }
        for number in flight.waiting.keys.sorted() { flight.waiting[number]?(outcome) }
    }

    /// Keeps `response` as the answer of `url` from now, and forgets the
    /// oldest answers while all of them hold more than `maximumBytes`. One
    /// larger than that alone is not kept.
    private func keep(_ response: HTTPResponse, for url: String) {
        var answers = kept
        answers[url] = Self.size(of: response) <= maximumBytes ? (response, clock()) : nil
        var bytes = answers.values.reduce(0) { $0 + Self.size(of: $1.response) }
        if bytes > maximumBytes {
            for (oldest, answer) in answers.sorted(by: { ($0.value.at, $0.key) < ($1.value.at, $1.key) }) {
                guard bytes > maximumBytes else { break }
                answers[oldest] = nil
                bytes -= Self.size(of: answer.response)
            }
        }
        kept = answers
    }

    /// What an answer kept holds: its body and its header fields.
    static func size(of response: HTTPResponse) -> Int {
        response.headers.reduce(response.body.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    private func drop(_ ticket: Ticket) {
        if pendingReuse.removeValue(forKey: ticket.number) != nil { return }
        guard let flight = inFlight[ticket.url] else { return }
        flight.waiting[ticket.number] = nil
        if flight.waiting.isEmpty {
            flight.transfer?.cancel()
            inFlight[ticket.url] = nil
        }
    }

    /// Answers before this are not reused (their validators still are).
    private var staleBefore = -Double.infinity

    /// Makes every answer kept so far stale: the next question of each is
    /// asked (a reload asks every place again).
    func expireAll() { staleBefore = clock() }

    /// Forgets the answer kept for `url`: one that could not be read is
    /// asked for again rather than given again.
    func forget(_ url: String) { kept[url] = nil }

    /// How many answers are kept (for tests and the bound).
    var keptCount: Int { kept.count }
}
