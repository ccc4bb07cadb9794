import Foundation
import QuireTestSupport
import Testing

/// `quire sessions` and `quire sessions revoke ID` through the built binaries and a real
/// `quire-server` on loopback: a device signed out from another is refused at its next request,
/// and its `quire status` says to sign in again.
struct SessionsCLITests {
    struct Entry: Decodable {
        var id: String
        var deviceName: String
        var current: Bool
    }

    @Test func revokingAnotherDeviceSignsItOutAndItsStatusSaysToSignInAgain() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }

        let listed = try await setup.laptop.ok("sessions")
        let entries = try JSONDecoder().decode(
            [Entry].self, from: Data(try await setup.laptop.ok("sessions", "--json").utf8))
        #expect(entries.map(\.deviceName) == ["phone", "laptop"])
        #expect(entries.map(\.current) == [false, true])
        let phone = try #require(entries.first)
        #expect(listed.contains(phone.id) && listed.contains("laptop") && listed.contains("(this device)"))

        let revoked = try await setup.laptop.ok("sessions", "revoke", String(phone.id.prefix(6)))

        #expect(revoked.contains("Signed out phone"))
        let sync = try await setup.phone.run("sync")
        #expect(sync.exitCode == 77)
        let status = try await setup.phone.ok("status")
        #expect(status.contains("signed out: run quire login \(setup.server.url.absoluteString) alice"))
        let after = try JSONDecoder().decode(
            [Entry].self, from: Data(try await setup.laptop.ok("sessions", "--json").utf8))
        #expect(after.map(\.deviceName) == ["laptop"])
        try await setup.laptop.ok("sync")

        // Signing in again, as the status says, keeps the device's name: it became the host's
        // name, and the sessions list and "typed on" labels could no longer tell devices apart.
        try await setup.phone.ok(
            "login", setup.server.url.absoluteString, "alice", "--password-stdin", stdin: "correct horse\n")
        let again = try JSONDecoder().decode(
            [Entry].self, from: Data(try await setup.laptop.ok("sessions", "--json").utf8))
        #expect(Set(again.map(\.deviceName)) == ["laptop", "phone"])
    }

    @Test func revokeRefusesThisDevicesOwnSessionAndAnUnknownID() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }
        let entries = try JSONDecoder().decode(
            [Entry].self, from: Data(try await setup.laptop.ok("sessions", "--json").utf8))
        let own = try #require(entries.first { $0.current })

        let itself = try await setup.laptop.run("sessions", "revoke", own.id)
        let unknown = try await setup.laptop.run("sessions", "revoke", "ffffffffffffffff")
        let missing = try await setup.laptop.run("sessions", "revoke")

        #expect(itself.exitCode == 64)
        #expect(itself.stderr.contains("quire logout"))
        #expect(unknown.exitCode == 65)
        #expect(unknown.stderr.contains("no signed-in device has the session id ffffffffffffffff"))
        #expect(missing.exitCode == 64)
        try await setup.laptop.ok("sync")
    }
}
