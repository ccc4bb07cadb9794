import Foundation
import Testing

/// What keeps the client modules and the app building on a Mac, checked here where no Apple SDK
/// is: the client modules reach Linux-only modules only behind `#if`, no module uses
/// Synchronization (its `Mutex` and `Atomic` need macOS 15 / iOS 18, above the package's
/// minimum), and the app names none of the server's or the tests' modules.
struct AppleBuildBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The modules the app links (Package.swift: "must stay buildable for iOS 17 / macOS 14").
    static let clientModules = [
        "QuireMerge", "QuireDomain", "QuireTrips", "QuireWire", "QuireClient", "QuireCrypto", "QuireSQLite",
        "QuirePresentation", "QuireMedia",
    ]
    /// Modules that exist only on Linux, or only in this package's server and test builds.
    static let linuxOnly: Set = [
        "Glibc", "FoundationNetworking", "CSQLite", "COpenSSL", "CCurl", "CMicroHTTPD", "CMicroHTTPDErrors",
        "CGnuTLS", "CLibPQ", "CVips", "CSpawn", "QuireSpawn", "QuirePostgres", "QuireServer", "QuireTestSupport",
    ]

    /// Each `import` of `text` with whether it sits inside an `#if` block.
    static func imports(in text: String) -> [(module: String, guarded: Bool)] {
        var depth = 0
        var found: [(String, Bool)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#if ") {
                depth += 1
            } else if trimmed.hasPrefix("#endif") {
                depth -= 1
            } else if let module = importedModule(trimmed) {
                found.append((module, depth > 0))
            }
        }
        return found
    }

    /// `Foundation` for `import Foundation`, `@testable import X`, `@preconcurrency import X`.
    static func importedModule(_ line: String) -> String? {
        let words = line.split(separator: " ").map(String.init).filter { !$0.hasPrefix("@") }
        guard words.count >= 2, words[0] == "import" else { return nil }
        return words[1].split(separator: ".").first.map(String.init)
    }

    static func swiftFiles(under folder: URL) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter {
            $0.pathExtension == "swift" && !$0.path.contains("/.build/")
        }
    }

    @Test func theImportCheckSeesAnUnguardedImport() {
        let found = Self.imports(
            in: "import Foundation\n#if canImport(CSQLite)\n    import CSQLite\n#endif\nimport CCurl\n")
        #expect(found.map(\.module) == ["Foundation", "CSQLite", "CCurl"])
        #expect(found.map(\.guarded) == [false, true, false])
    }

    @Test(arguments: clientModules)
    func aClientModuleReachesLinuxOnlyModulesOnlyBehindIf(module: String) throws {
        let files = try Self.swiftFiles(under: Self.root.appendingPathComponent("Sources/\(module)"))
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for found in Self.imports(in: text) {
                #expect(
                    found.guarded || !Self.linuxOnly.contains(found.module),
                    "\(file.lastPathComponent) imports \(found.module) outside #if")
                #expect(
                    found.module != "Synchronization",
                    "\(file.lastPathComponent) imports Synchronization (Mutex needs macOS 15 / iOS 18)")
            }
        }
    }

    @Test func noModuleUsesSynchronization() throws {
        // `swift build` at the root on a Mac compiles the server and tools too, for macOS 14.
        for file in try Self.swiftFiles(under: Self.root.appendingPathComponent("Sources")) {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(
                !Self.imports(in: text).contains { $0.module == "Synchronization" },
                "\(file.lastPathComponent) imports Synchronization (Mutex and Atomic need macOS 15 / iOS 18)")
        }
    }

    @Test func theAppNamesNoServerOrTestModule() throws {
        let files = try Self.swiftFiles(under: Self.root.appendingPathComponent("Apps/QuireApp/Sources"))
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for found in Self.imports(in: text) {
                #expect(!Self.linuxOnly.contains(found.module), "\(file.lastPathComponent) imports \(found.module)")
            }
        }
    }
}
