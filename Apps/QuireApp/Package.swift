// swift-tools-version: 6.0
import PackageDescription

// The SwiftUI app (seed 000 card 1, seed 004 step 07): thin screens over the view models of
// QuirePresentation, and the Apple implementations of the client's seams (Keychain, NWPathMonitor,
// file protection, background work). Its own package, so the Linux build of the core never sees
// SwiftUI. See README.md for building it on a Mac.
let package = Package(
    name: "QuireApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "QuireAppUI", targets: ["QuireAppUI"]),
        .executable(name: "QuireApp", targets: ["QuireApp"]),
    ],
    dependencies: [
        // The core, by path: the repository's root package (named "Quire" in its manifest).
        .package(name: "Quire", path: "../..")
    ],
    targets: [
        .target(
            name: "QuireAppUI",
            dependencies: [
                .product(name: "QuireClient", package: "Quire"),
                .product(name: "QuirePresentation", package: "Quire"),
                .product(name: "QuireDomain", package: "Quire"),
                .product(name: "QuireTrips", package: "Quire"),
                .product(name: "QuireMedia", package: "Quire"),
            ]),
        // The `@main` app: `swift run QuireApp` on a Mac; the iOS app target (project.yml) has the
        // same one-file entry point.
        .executableTarget(name: "QuireApp", dependencies: ["QuireAppUI"]),
    ],
    swiftLanguageModes: [.v6]
)
