import Foundation
import QuireTestSupport
import Testing

/// `quire status` leads with seed 004's label, `--json` carries it, and the commands that change a
/// note say in one line what they did (issue 11, 4).
@Suite struct CLIStatusTests {
    func label(_ device: CLIDevice) async throws -> (text: String, json: String?) {
        let text = try await device.ok("status")
        let json = try await device.ok("status", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (text, object?["label"] as? String)
    }

    @Test func statusLeadsWithTheLabelThroughADevicesLife() async throws {
        let root = try TemporaryDirectory(prefix: "quire-status")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.ok("new", "--title", "A")
        var shown = try await label(device)
        #expect(shown.text.hasPrefix("Status:       On this device only\n"))
        #expect(shown.json == "On this device only")

        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        try await device.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        shown = try await label(device)
        #expect(shown.text.hasPrefix("Status:       1 not synced\n"))
        #expect(shown.json == "1 not synced")

        try await device.ok("sync")
        shown = try await label(device)
        #expect(shown.text.hasPrefix("Status:       Synced\n"))
        #expect(shown.json == "Synced")

        await server.stop()
        #expect(try await device.run("sync").exitCode == 69)
        shown = try await label(device)
        #expect(shown.text.hasPrefix("Status:       Offline\n"))
        #expect(shown.json == "Offline")
    }

    @Test func removeAndEditSayWhatTheyDid() async throws {
        let root = try TemporaryDirectory(prefix: "quire-status")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Groceries", "--body", "milk")
        let short = String(id.suffix(8))
        #expect(try await device.ok("edit", id, "--body", "oat milk") == "Saved \(short) \"Groceries\".")
        #expect(try await device.ok("edit", id, "--body", "oat milk") == "No change to \(short) \"Groceries\".")
        #expect(try await device.ok("rm", id) == "Deleted \(short) \"Groceries\" (undo: quire restore \(short)).")
    }
}
