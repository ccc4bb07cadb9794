import Foundation
import Testing

/// The upload flags of the `quire-server` binary: said in the help, checked, and a blob
/// directory that cannot be used stops the server before it serves.
final class ServerUploadFlagsTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "quire-upload-flags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var database: String { directory.appendingPathComponent("server.sqlite").path }

    @Test func theHelpSaysTheUploadFlagsAndTheirDefaults() async throws {
        let run = try await ServerExecutableTests.run(["--help"])

        #expect(run.status == 0)
        #expect(
            run.stdout.contains("--blobs DIR                  the uploads' directory (default: beside the database"))
        #expect(run.stdout.contains("--max-upload-mib N           the largest upload, in MiB (default 1024)"))
        #expect(run.stdout.contains("--upload-quota-mib N"))
        #expect(run.stdout.contains("--upload-expiry-hours N"))
        #expect(run.stdout.contains("--upload-chunk-mib N"))
    }

    @Test(arguments: [
        ["--upload-chunk-mib", "0"], ["--upload-chunk-mib", "65"], ["--max-upload-mib", "big"],
        ["--upload-expiry-hours", "-1"], ["--blobs", ""],
    ])
    func aBadUploadFlagIsAUsageError(_ arguments: [String]) async throws {
        let run = try await ServerExecutableTests.run(arguments + ["--db", database])

        #expect(run.status == 64)
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aBlobDirectoryThatCannotBeMadeStopsTheServer() async throws {
        let blocker = directory.appendingPathComponent("a-file")
        try Data("not a directory".utf8).write(to: blocker)

        let run = try await ServerExecutableTests.run(
            ["--db", database, "--port", "0", "--blobs", blocker.appendingPathComponent("blobs").path])

        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot keep uploads in") && run.stderr.contains("--blobs"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
