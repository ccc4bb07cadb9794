import Foundation

/// Finds the package's built executables (`quire`, `quire-server`) for tests that run them.
///
/// Looks in `$QUIRE_BIN_DIR`, then beside the running test bundle (`.build/<config>/`), which is
/// where `swift build --build-tests` puts them.
public enum BuiltProducts {
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "built product '\(name)' not found; run 'swift build --build-tests' first (or set QUIRE_BIN_DIR)"
        }
    }

    public static func executable(_ name: String) throws -> URL {
        for directory in candidateDirectories() {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Missing(name: name)
    }

    private static func candidateDirectories() -> [URL] {
        var directories: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["QUIRE_BIN_DIR"] {
            directories.append(URL(fileURLWithPath: explicit))
        }
        let argument0 = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        var directory = argument0.deletingLastPathComponent()
        // On Linux the test runner is `.build/debug/QuirePackageTests.xctest`; on macOS a bundle
        // deeper inside: walk up to the directory that holds the executables.
        for _ in 0..<4 {
            directories.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        return directories
    }
}
