import Foundation
import QuireTestSupport

/// A real `quire-server` on loopback and two `quire` devices of one account, "phone" (which
/// registered) and "laptop" (which signed in): the set-up of the two-device end-to-end suites.
/// Call `tearDown()` (in a `defer`).
struct TwoCLIDevices {
    let root: TemporaryDirectory
    let server: ServerProcess
    let phone: CLIDevice
    let laptop: CLIDevice

    /// - Parameter namingDevices: each device signs in with its name (`--device-name`), as the
    ///   history shows who typed each version.
    /// - Parameter serverArguments: more options for `quire-server`.
    init(namingDevices: Bool = false, serverArguments: [String] = []) async throws {
        root = try TemporaryDirectory(prefix: "quire-e2e")
        server = try await ServerProcess.start(
            databaseFile: root.path("server.sqlite"), extraArguments: serverArguments)
        phone = CLIDevice(root, "phone")
        laptop = CLIDevice(root, "laptop")
        let url = server.url.absoluteString
        func named(_ name: String) -> [String] { namingDevices ? ["--device-name", name] : [] }
        try await phone.ok(
            ["register", url, "alice", "--password-stdin"] + named("phone"), stdin: "correct horse\n")
        try await laptop.ok(["login", url, "alice", "--password-stdin"] + named("laptop"), stdin: "correct horse\n")
    }

    func tearDown() {
        server.terminate()
        root.remove()
    }
}
