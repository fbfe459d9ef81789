// swift-tools-version:6.0
import PackageDescription

// Layers (docs/ARCHITECTURE.md): C module maps and shims -> typed system wrappers (RainSystem)
// -> pure core (RainCore: what both executables share; RainDaemonCore: what only the daemon
// does) -> daemon shell (RainDaemon) -> two thin executables.
// raindctl depends on RainCore and RainSystem only: no libcurl, no libsystemd, no provider or
// alert parser, linked statically.

// For every Swift target of the two executables: they must start fast (docs/PERFORMANCE.md).
// - Concrete generic metadata (a KeyedDecodingContainer of a type's CodingKeys, say) is
//   built by calling its accessor with the conformances in hand, instead of by demangling
//   its name at first use, which looks each conformance up by a scan of every conformance
//   record in the binary: a few dozen scans of the statically linked runtime's thousands.
// - Nothing here uses Swift concurrency or Regex, so their modules are not imported;
//   otherwise the static raindctl links the concurrency runtime and libdispatch, whose
//   constructors run at every start.
// - Each function in a section of its own, so that the linker can place it alone: raindctl's
//   link order (scripts/build-release) gathers what its commands run, function by function,
//   instead of every function of each source file that has one of them.
let startSettings: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-function-sections",
    ])
]

let package = Package(
    name: "raind",
    products: [
        .executable(name: "raind", targets: ["raind"]),
        .executable(name: "raindctl", targets: ["raindctl"]),
    ],
    targets: [
        // libcurl's header only (libcurl4-openssl-dev): raind opens the library itself
        // at the first request (CShims/curl.c), so nothing links it.
        .systemLibrary(name: "CCurl"),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libcurl, loaded on first use, behind typed wrappers (its setopt and getinfo are variadic).
        .target(name: "CShims", dependencies: ["CCurl"]),
        // GNU extensions (accept4, struct ucred) hidden from Swift's Glibc module.
        .target(name: "CSocket"),
        // Every system call of both executables, behind typed wrappers: sockets, descriptors,
        // files, memory maps, clocks, signals, limits, and their typed errors (one EINTR path).
        .target(name: "RainSystem", dependencies: ["CSocket"], swiftSettings: startSettings),
        // The name service (getgrnam_r), for raind alone: a static raindctl linking it would
        // depend on the glibc it was built with (docs/DECISIONS.md).
        .target(name: "RainNameService", dependencies: ["RainSystem"], swiftSettings: startSettings),
        // glibc's gettext and locale calls (dngettext, newlocale's masks), hidden from Swift's Glibc module.
        .target(name: "CLocale"),
        // What both executables share: the model, the wire types and their codec, presentation,
        // units, time, localization, the socket's place (docs/ARCHITECTURE.md, "Layers and targets");
        // the system's defaults (the tz database, the catalogues) read through RainSystem.
        .target(name: "RainCore", dependencies: ["CLocale", "RainSystem"], swiftSettings: startSettings),
        // What only the daemon does, still without I/O: providers and their parsers, alert
        // services, air, scheduling and budgets, configuration, HTTP rules, notification records.
        .target(name: "RainDaemonCore", dependencies: ["RainCore"], swiftSettings: startSettings),
        .target(name: "RainPlaces", dependencies: ["RainCore", "RainDaemonCore", "RainSystem"], swiftSettings: startSettings),
        .target(
            name: "RainDaemon",
            dependencies: [
                "RainCore", "RainDaemonCore", "RainPlaces", "RainSystem", "RainNameService", "CCurl", "CShims", "CSystemd",
            ],
            swiftSettings: startSettings
        ),
        // The Swift runtime is linked in, so the installed raind needs no Swift
        // toolchain; the C libraries (libsystemd, glibc, libcurl opened at run time) stay shared.
        // What the loader does at its start is cut to what it needs (docs/DECISIONS.md, "raind
        // reads what it needs before READY=1"):
        // - the runtime's libstdc++ linked in too (libstdc++-12-dev's archive, chosen by the
        //   linker script packaging/link/libstdc++.so): the loader neither maps it nor binds
        //   the 1,666 symbols it did;
        // - no symbol of raind's own exported (the runtime's link arguments export them all):
        //   nothing looks them up, and the runtime's `dladdr` at start scanned them.
        // lld, as for raindctl: it takes the order scripts/build-release links raind in.
        .executableTarget(
            name: "raind",
            dependencies: ["RainDaemon"],
            swiftSettings: startSettings,
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib", "-use-ld=lld", "-L", Context.packageDirectory + "/packaging/link",
                    "-Xlinker", "--no-export-dynamic",
                ])
            ]
        ),
        // Search and reverse-lookup latency against a linear-scan yardstick (docs/PERFORMANCE.md).
        .executableTarget(
            name: "places-bench", dependencies: ["RainPlaces", "RainCore", "RainSystem"], path: "bench/places"),
        .executableTarget(
            name: "raindctl",
            dependencies: ["RainCore", "RainSystem"],
            swiftSettings: startSettings,
            // lld, which takes the order scripts/build-release links raindctl in (--symbol-ordering-file).
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"])]
        ),
        // What every test target shares: the repository's paths, its fixtures, whole-file reads.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Both cores' tests in one target: the views are checked on what the providers' parsers make
        // of recorded answers. RainSystem reads the tz database for the time zone tests, as the
        // executables do.
        .testTarget(name: "RainCoreTests", dependencies: ["RainCore", "RainDaemonCore", "RainSystem", "TestSupport"]),
        .testTarget(name: "RainSystemTests", dependencies: ["RainSystem", "RainNameService"]),
        .testTarget(
            name: "RainDaemonTests", dependencies: ["RainDaemon", "RainCore", "RainDaemonCore", "RainSystem", "TestSupport"]),
        .testTarget(
            name: "RainPlacesTests",
            dependencies: ["RainPlaces", "RainCore", "RainSystem", "TestSupport"],
            // Read through #filePath, so the table stays a plain file of the repository.
            exclude: ["search-quality.tsv", "position-naming.tsv"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
