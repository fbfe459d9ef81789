import Foundation

/// raind's catalogues (`po/*.po`) compiled by the real msgfmt (Debian's
/// gettext) into a scratch directory, once per test process: the directory
/// to bind the `raind` text domain to (`Localization.bind`), nil when msgfmt
/// is missing or refuses a catalogue.
public enum Catalogues {
    public static let compiled: String? = {
        let directory = NSTemporaryDirectory() + "raind-locale-\(getpid())"
        let po = Repository.path("po")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: po) else { return nil }
        for name in names where name.hasSuffix(".po") {
            let target = directory + "/\(name.dropLast(3))/LC_MESSAGES"
            try? FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let msgfmt = Process()
            msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
            msgfmt.arguments = ["--check", "-o", target + "/raind.mo", po + "/" + name]
            guard (try? msgfmt.run()) != nil else { return nil }
            msgfmt.waitUntilExit()
            guard msgfmt.terminationStatus == 0 else { return nil }
        }
        return directory
    }()
}
