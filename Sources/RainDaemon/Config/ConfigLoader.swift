import RainCore
import RainDaemonCore
import RainSystem

/// Reads `raind.conf` and its drop-ins (`raind.conf.d/*.conf`, lexical order)
/// into a `Configuration`, with every finding located by file and line.
public struct ConfigLoader {
    public var paths: DaemonPaths

    public init(paths: DaemonPaths) { self.paths = paths }

    public struct Result {
        public var configuration: Configuration
        public var diagnostics: [ConfigDiagnostic]
        public var files: [String]
        public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }
    }

    public func load() -> Result {
        var parser = ConfigParser()
        var files: [String] = []
        var unreadable: [ConfigDiagnostic] = []
        let candidates = [paths.configFile] + Self.dropIns(in: paths.configDropInDirectory)
        for file in candidates {
            switch FileIO.readFile(file, limit: 1 << 20) {
            case .success(let bytes):
                files.append(file)
                parser.apply(text: String(decoding: bytes, as: UTF8.self), file: file)
            case .failure(let error) where error.errno == .noSuchFileOrDirectory:
                continue
            case .failure(let error) where FileIO.isNotRegularFile(error):
                unreadable.append(
                    ConfigDiagnostic(
                        severity: .error, file: file, line: 0,
                        message:
                            "cannot read: not a regular file (a FIFO, directory or device is not read); replace it with a file"
                    ))
            case .failure(let error):
                unreadable.append(
                    ConfigDiagnostic(
                        severity: .error, file: file, line: 0,
                        message: "cannot read: \(error.message) (check its permissions)"))
            }
        }
        return Result(configuration: parser.configuration, diagnostics: unreadable + parser.diagnostics, files: files)
    }

    /// `*.conf` files in a directory, sorted by name.
    static func dropIns(in directory: String) -> [String] {
        // No directory (or none readable) is no drop-ins.
        let names = (try? FileIO.directoryEntries(in: directory)) ?? []
        return names.filter { $0.hasSuffix(".conf") && !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
    }
}
