// swift-tools-version: 6.0
import PackageDescription

// Layers (shared/DESIGN.md): QuireWire is the only module client and server share.
// Client modules (QuireMerge, QuireDomain, QuireClient, QuireCrypto, QuireSQLite) must stay
// buildable for iOS 17 / macOS 14: they never link libmicrohttpd or libpq, and take SQLite and
// OpenSSL from system-library targets only on Linux (SQLite3 and CryptoKit on Apple).
let linuxOnly = TargetDependencyCondition.when(platforms: [.linux])

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "quire", targets: ["QuireCLI"]),
        .executable(name: "quire-server", targets: ["QuireServerMain"]),
        // Decodes photos for `quire` in a process of its own (see QuireWire's PhotoHelperAnswer).
        .executable(name: "quire-photo", targets: ["QuirePhotoMain"]),
        .executable(name: "quire-bench", targets: ["QuireBench"]),
        .executable(name: "quire-sim", targets: ["QuireSim"]),
        .library(name: "QuireClient", targets: ["QuireClient"]),
        // What the SwiftUI app (Apps/QuireApp, its own package) takes from the core.
        .library(name: "QuireDomain", targets: ["QuireDomain"]),
        .library(name: "QuireTrips", targets: ["QuireTrips"]),
        .library(name: "QuirePresentation", targets: ["QuirePresentation"]),
        // The app prepares photos in its own process with it (ImageIO on Apple).
        .library(name: "QuireMedia", targets: ["QuireMedia"]),
        .library(name: "QuireServer", targets: ["QuireServer"]),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // The TLS library libmicrohttpd serves HTTPS with (Debian's is built with GnuTLS): the
        // server checks a certificate and key with it before starting (`--tls-cert`, `--tls-key`).
        .systemLibrary(
            name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]),
        // The device's HTTP client on Linux (FoundationNetworking's URLSession spins a core while
        // a long-poll waits; see CurlTransport).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // The allocator of Quire's programs on Linux (server, CLI, bench): glibc's malloc spent a
        // tenth of the server's CPU in its bins (docs/benchmarks.md, "Part 6, eighth pass").
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        // Photo thumbnails and location removal on Linux (ImageIO on Apple): see QuireMedia.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),

        // MARK: - Shared foundations
        .target(name: "QuireSQLite", dependencies: [.target(name: "CSQLite", condition: linuxOnly)]),
        .target(name: "QuireCrypto", dependencies: [.target(name: "COpenSSL", condition: linuxOnly)]),
        .target(name: "QuireWire"),
        // A value behind a lock (Synchronization's Mutex needs macOS 15; the package builds for 14).
        .target(name: "QuireLock"),
        // PostgreSQL through libpq: connections, text-parameter queries, transactions, a pool.
        .target(name: "QuirePostgres", dependencies: ["CLibPQ", "QuireLock"]),
        // Child processes through posix_spawn (Foundation's Process crashes on Linux, see there).
        .target(name: "CSpawn"),
        .target(name: "QuireSpawn", dependencies: ["CSpawn"]),

        // MARK: - Client
        .target(name: "QuireMerge"),
        .target(name: "QuireDomain", dependencies: ["QuireMerge", "QuireWire"]),
        // Travel plans (seed 002): the pure model (fields, local times and zones, order keys).
        .target(name: "QuireTrips", dependencies: ["QuireWire"]),
        .target(
            name: "QuireClient",
            dependencies: [
                "QuireDomain", "QuireMerge", "QuireTrips", "QuireWire", "QuireSQLite", "QuireCrypto",
                .target(name: "CCurl", condition: linuxOnly),
            ]),

        .target(name: "QuirePresentation", dependencies: ["QuireDomain", "QuireTrips"]),
        // A trip photo's upload copy (location removed) and thumbnail: libvips on Linux, ImageIO on
        // Apple. QuireClient never links an image library; it takes this through PhotoPreparing.
        .target(
            name: "QuireMedia",
            dependencies: [
                .target(name: "CVips", condition: linuxOnly), .target(name: "QuireSQLite", condition: linuxOnly),
            ]),

        // MARK: - Server
        // libmicrohttpd's own error pages (HTML) become the JSON error shape: see the C file.
        .target(name: "CMicroHTTPDErrors", linkerSettings: [.linkedLibrary("dl")]),
        // The server's SQLite writer: its write-ahead log's writes gathered into one per commit.
        .target(name: "CSQLiteWALBuffer", dependencies: [.target(name: "CSQLite", condition: linuxOnly)]),
        .target(
            name: "QuireServer",
            dependencies: [
                "QuireWire", "QuireSQLite", "QuirePostgres", "QuireCrypto", "CMicroHTTPD", "CGnuTLS",
                "CMicroHTTPDErrors", "CSQLiteWALBuffer", "QuireLock",
            ]),

        // MARK: - Executables
        .executableTarget(
            name: "QuireCLI",
            dependencies: [
                "QuireClient", "QuirePresentation", "QuireMerge", "QuireSpawn", "QuireWire", "QuireLock",
                .target(name: "CJemalloc", condition: linuxOnly),
            ]),
        .executableTarget(name: "QuirePhotoMain", dependencies: ["QuireMedia", "QuireWire"]),
        .executableTarget(
            name: "QuireServerMain",
            dependencies: ["QuireServer", .target(name: "CJemalloc", condition: linuxOnly)]),
        .executableTarget(
            name: "QuireBench",
            dependencies: [
                "QuireClient", "QuireServer", "QuireMerge", "QuireTestSupport", "QuireCrypto",
                "QuireSQLite", "QuireWire", "QuireDomain", "QuireTrips", "QuireSpawn", "CMicroHTTPD", "QuireLock",
                "QuireMedia", "QuirePresentation", .target(name: "CSQLite", condition: linuxOnly),
                .target(name: "CJemalloc", condition: linuxOnly),
            ]),

        // MARK: - Test support and tests
        .target(
            name: "QuireTestSupport",
            dependencies: ["QuireClient", "QuireServer", "QuirePostgres", "QuireSpawn", "QuireLock"]),
        .target(
            name: "QuireSimulation",
            dependencies: ["QuireClient", "QuireServer", "QuireTestSupport", "QuireTrips", "QuireCrypto"]),
        .executableTarget(name: "QuireSim", dependencies: ["QuireSimulation"]),
        .testTarget(name: "QuireSimulationTests", dependencies: ["QuireSimulation"]),
        .testTarget(
            name: "QuireCrashTests", dependencies: ["QuireClient", "QuireServer", "QuireTestSupport"]),
        .testTarget(name: "QuireMergeTests", dependencies: ["QuireMerge"]),
        .testTarget(name: "QuireCryptoTests", dependencies: ["QuireCrypto"]),
        .testTarget(name: "QuireSQLiteTests", dependencies: ["QuireSQLite"]),
        .testTarget(name: "QuirePostgresTests", dependencies: ["QuirePostgres", "QuireTestSupport"]),
        .testTarget(name: "QuireDomainTests", dependencies: ["QuireDomain", "QuireWire"]),
        .testTarget(name: "QuireTripsTests", dependencies: ["QuireTrips", "QuireSpawn"]),
        .testTarget(
            name: "QuirePresentationTests", dependencies: ["QuirePresentation", "QuireDomain", "QuireTrips"]),
        .testTarget(name: "QuireClientTests", dependencies: ["QuireClient", "QuireTestSupport"]),
        .testTarget(
            name: "QuireServerTests",
            dependencies: ["QuireServer", "QuirePostgres", "QuireTestSupport", "QuireSpawn", "QuireClient"]),
        .testTarget(name: "QuireSpawnTests", dependencies: ["QuireSpawn"]),
        .testTarget(
            name: "QuireMediaTests",
            dependencies: ["QuireMedia", "QuireSpawn", .target(name: "CVips", condition: linuxOnly)]),
        .testTarget(
            name: "QuireEndToEndTests",
            dependencies: ["QuireClient", "QuireServer", "QuireTestSupport", "QuireSpawn"]),
    ],
    swiftLanguageModes: [.v6]
)
