import Foundation
import QuireTestSupport
import Testing

/// Password strength and the recovery key through the built `quire` binaries and a real
/// `quire-server` on loopback (issue 12, items 10 and 11).
struct RecoveryCLITests {
    static let password = "correct horse"
    static let newPassword = "maple orbit lantern"

    /// A real server on loopback over a SQLite file in a fresh directory; stop both with ``stop(_:_:)``.
    static func startServer() async throws -> (TemporaryDirectory, ServerProcess) {
        let root = try TemporaryDirectory(prefix: "quire-recovery")
        return (root, try await ServerProcess.start(databaseFile: root.path("server.sqlite")))
    }

    static func stop(_ root: TemporaryDirectory, _ server: ServerProcess) {
        server.terminate()
        root.remove()
    }

    /// The recovery key `register` printed, as shown.
    static func recoveryKey(in output: String) throws -> String {
        let keys = output.matches(of: /[0-9A-Z]{4}(?:-[0-9A-Z]{4}){8}/).map { String($0.output) }
        try #require(keys.count == 1, "expected one recovery key in: \(output)")
        return keys[0]
    }

    @Test(arguments: [
        ("a", "it has 1 character"), ("password123", "it is a common password"),
        ("aaaaaaaaaaaa", "repeats or sequences"), ("ann is my name", "contains your username"),
    ])
    func aWeakPasswordIsRefusedAtRegisterWithWhatToDoAndNothingIsSent(password: String, reason: String)
        async throws
    {
        let (root, server) = try await Self.startServer()
        defer { Self.stop(root, server) }
        let device = CLIDevice(root, "d")

        let refused = try await device.run(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: password + "\n")

        #expect(refused.exitCode == 1)
        #expect(refused.stderr.hasPrefix("quire: the password is too weak: "))
        #expect(refused.stderr.contains(reason))
        #expect(refused.stderr.contains("a few unrelated words work well. Nothing was sent to the server."))
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
        #expect(!refused.stderr.contains("usage"))
        // No account was made: the name is still free.
        try await device.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: Self.password + "\n")
    }

    @Test func aWeakNewPasswordIsRefusedAtPasswdAndTheOldOneStillWorks() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }

        let refused = try await setup.phone.run("passwd", "--password-stdin", stdin: "correct horse\nqwertyuiop\n")

        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("the password is too weak"))
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
    }

    @Test func registrationShowsTheRecoveryKeyOnceAndSaysAForgottenPasswordLosesTheNotes() async throws {
        let (root, server) = try await Self.startServer()
        defer { Self.stop(root, server) }
        let device = CLIDevice(root, "d")

        let output = try await device.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: Self.password + "\n")

        let key = try Self.recoveryKey(in: output)
        #expect(output.contains("shown only this once"))
        #expect(output.contains("if you forget it, this key is the only way back to them"))
        #expect(output.contains("no one can read your notes"))
        #expect(output.contains("quire recover \(server.url.absoluteString) ann"))
        // The device keeps no copy, and no later command shows it again.
        let status = try await device.ok("status")
        #expect(!status.contains(key))
        let stored = try FileManager.default.subpathsOfDirectory(atPath: device.directory.path).compactMap {
            try? Data(contentsOf: device.directory.appendingPathComponent($0))
        }
        for bytes in stored {
            #expect(bytes.range(of: Data(key.utf8)) == nil)
            #expect(bytes.range(of: Data(key.replacingOccurrences(of: "-", with: "").utf8)) == nil)
        }
    }

    @Test func theRecoveryKeySetsANewPasswordOnAnotherDeviceAndSignsTheFirstOut() async throws {
        let (root, server) = try await Self.startServer()
        defer { Self.stop(root, server) }
        let url = server.url.absoluteString
        let phone = CLIDevice(root, "phone")
        let laptop = CLIDevice(root, "laptop")
        let key = try Self.recoveryKey(
            in: try await phone.ok("register", url, "alice", "--password-stdin", stdin: Self.password + "\n"))
        let id = try await phone.ok("new", "--title", "Plans", "--body", "sealed on the phone")
        try await phone.ok("sync")

        // The key typed in lower case with spaces, as a person might copy it.
        let typed = key.lowercased().replacingOccurrences(of: "-", with: " ")
        let recovered = try await laptop.ok(
            "recover", url, "alice", "--password-stdin", stdin: "\(typed)\n\(Self.newPassword)\n")
        #expect(recovered.contains("this device is signed in"))
        #expect(recovered.contains("Every other device was signed out"))

        try await laptop.ok("sync")
        #expect(try await laptop.notes().map(\.body) == ["sealed on the phone"])
        #expect(try await laptop.ok("show", id).contains("sealed on the phone"))
        let signedOut = try await phone.run("sync")
        #expect(signedOut.exitCode == 77)
        #expect(signedOut.stderr.lowercased().contains("sign in again"), "\(signedOut.stderr)")
        let old = try await phone.run("login", url, "alice", "--password-stdin", stdin: Self.password + "\n")
        #expect(old.exitCode == 77)
        try await phone.ok("login", url, "alice", "--password-stdin", stdin: Self.newPassword + "\n")
        try await phone.ok("sync")

        // The recovery key keeps working after it was used.
        let tablet = CLIDevice(root, "tablet")
        try await tablet.ok("recover", url, "alice", "--password-stdin", stdin: "\(key)\nthird good phrase\n")
    }

    @Test func aMistypedOrWrongRecoveryKeyFailsWithOneClearLineAndChangesNothing() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let url = setup.server.url.absoluteString
        let other = CLIDevice(setup.root, "other")
        let someoneElses = try Self.recoveryKey(
            in: try await other.ok("register", url, "bob", "--password-stdin", stdin: "battery staple\n"))
        var symbols = Array(someoneElses)
        symbols[0] = symbols[0] == "7" ? "8" : "7"
        let stranger = CLIDevice(setup.root, "stranger")

        let mistyped = try await stranger.run(
            "recover", url, "alice", "--password-stdin", stdin: "\(String(symbols))\n\(Self.newPassword)\n")
        let malformed = try await stranger.run(
            "recover", url, "alice", "--password-stdin", stdin: "ABCD-EFGH\n\(Self.newPassword)\n")
        let wrong = try await stranger.run(
            "recover", url, "alice", "--password-stdin", stdin: "\(someoneElses)\n\(Self.newPassword)\n")

        #expect(mistyped.exitCode == 65)
        #expect(mistyped.stderr.contains("The recovery key has a typo"))
        #expect(mistyped.stderr.contains("Nothing was sent to the server."))
        #expect(malformed.exitCode == 65)
        #expect(malformed.stderr.contains("That is not a recovery key"))
        #expect(wrong.exitCode == 77)
        #expect(wrong.stderr.contains("The username or recovery key is wrong; nothing was changed."))
        for result in [mistyped, malformed, wrong] {
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        // Nothing changed: both devices still sync, and the password still signs in.
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await stranger.ok("login", url, "alice", "--password-stdin", stdin: Self.password + "\n")
    }

    @Test func aNewRecoveryKeyReplacesTheOldOneAndNeedsThePassword() async throws {
        let (root, server) = try await Self.startServer()
        defer { Self.stop(root, server) }
        let url = server.url.absoluteString
        let phone = CLIDevice(root, "phone")
        let first = try Self.recoveryKey(
            in: try await phone.ok("register", url, "ann", "--password-stdin", stdin: Self.password + "\n"))

        let refused = try await phone.run("recovery-key", "--password-stdin", stdin: "not the password\n")
        let made = try await phone.ok("recovery-key", "--password-stdin", stdin: Self.password + "\n")

        #expect(refused.exitCode == 77)
        let second = try Self.recoveryKey(in: made)
        #expect(second != first)
        #expect(made.contains("the one before it no longer works"))
        let laptop = CLIDevice(root, "laptop")
        let old = try await laptop.run(
            "recover", url, "ann", "--password-stdin", stdin: "\(first)\n\(Self.newPassword)\n")
        #expect(old.exitCode == 77)
        try await laptop.ok("recover", url, "ann", "--password-stdin", stdin: "\(second)\n\(Self.newPassword)\n")
    }
}
