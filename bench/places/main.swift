// Places benchmark: search and reverse-lookup latency of RainPlaces, each
// printed beside a yardstick measured in the same run (a linear scan over
// every place doing the same job), plus resident memory at each stage.
//
//   swift run -c release --scratch-path .build places-bench [--write docs/PERFORMANCE.md]
//   swift run -c release --scratch-path .build places-bench --query "Portland, OR"
import Glibc
import RainCore
import RainPlaces

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = Array(CommandLine.arguments.dropFirst())
let environment: [String: String] = {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}()

guard let path = PlaceDirectory.locateDataFile(environment: environment) else {
    fputs("places-bench: no places.bin found (set RAIND_DATA_DIR)\n", stderr)
    exit(66)
}

if let flag = arguments.firstIndex(of: "--query"), flag + 1 < arguments.count {
    do {
        let places = try PlaceDirectory(path: path)
        for query in arguments[(flag + 1)...] {
            print("\(query):")
            for match in places.search(query) {
                let c = match.candidate
                print("  \(String(format3(match.score))) \(match.kind) \(c.name), \(c.region), \(c.country) [\(c.countryCode)] pop \(c.population) \(c.timeZone)")
            }
            switch places.resolve(query) {
            case .unique(let c): print("  resolve: unique \(c.name), \(c.region), \(c.countryCode)")
            case .ambiguous(let list): print("  resolve: ambiguous \(list.count)")
            case .notFound(let s): print("  resolve: not found, suggestions \(s.map { $0.candidate.name })")
            }
        }
    } catch {
        fputs("places-bench: \(error)\n", stderr)
        exit(1)
    }
    exit(0)
}

func format3(_ value: Double) -> String {
    let scaled = (value * 1000).rounded()
    let whole = Int(scaled) / 1000
    let fraction = abs(Int(scaled) % 1000)
    let digits = String(fraction)
    return "\(whole).\(String(repeating: "0", count: 3 - digits.count))\(digits)"
}
