import Glibc

/// Size of a file in bytes, 0 when it cannot be read.
enum FileSize {
    static func bytes(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

/// docs/PERFORMANCE.md, one `## ` section per benchmark; rewriting one
/// section leaves the others as they were.
enum PerformanceDocument {
    static func replaceSection(in path: String, heading: String, with lines: [String]) {
        var existing: [String] = []
        if let handle = fopen(path, "r") {
            var text: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let read = fread(&buffer, 1, buffer.count, handle)
                if read <= 0 { break }
                text.append(contentsOf: buffer[0..<read])
            }
            fclose(handle)
            existing = String(decoding: text, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if existing.last == "" { existing.removeLast() }
        }
        if existing.isEmpty {
            existing = [
                "# Performance", "", "Figures from the benchmarks in `bench/`, each next to a yardstick",
                "measured in the same run. They describe one machine; CI never gates on them.", "",
            ]
        }
        var output: [String] = []
        var index = 0
        var replaced = false
        while index < existing.count {
            if existing[index] == heading {
                output += lines + [""]
                replaced = true
                index += 1
                while index < existing.count && !existing[index].hasPrefix("## ") { index += 1 }
                continue
            }
            output.append(existing[index])
            index += 1
        }
        if !replaced {
            if output.last != "" { output.append("") }
            output += lines + [""]
        }
        while output.last == "" { output.removeLast() }
        let text = output.joined(separator: "\n") + "\n"
        guard let handle = fopen(path, "w") else {
            complain("cannot write \(path)")
            return
        }
        _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, handle) }
        fclose(handle)
    }
}
