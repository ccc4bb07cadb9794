import Foundation
import QuireTestSupport
import Testing

/// Issue 12, item 8, as a person meets it: a `quire-server` with a note quota, the built `quire`.
@Suite struct QuotaCLITests {
    /// A note past the account's quota is refused by the server (403 `quota_exceeded`); the device
    /// keeps its text with the server's reason, `sync` exits 75, and the note syncs once room was
    /// made and it was saved again.
    @Test func aNotePastTheQuotaStaysOnTheDeviceWithTheReason() async throws {
        let setup = try await TwoCLIDevices(serverArguments: ["--max-notes-per-account", "1"])
        defer { setup.tearDown() }
        let first = try await setup.phone.ok("new", "--title", "First", "--body", "one")
        try await setup.phone.ok("sync")
        let second = try await setup.phone.ok("new", "--title", "Second", "--body", "kept here")

        let sync = try await setup.phone.run("sync")

        #expect(sync.exitCode == 75, "\(sync.stdout)\(sync.stderr)")
        let list = try await setup.phone.ok("ls")
        #expect(list.contains("[refused by server]"))
        #expect(list.contains("most notes (1)"))
        #expect(try await setup.phone.notes().map(\.body).sorted() == ["kept here", "one"])
        try await setup.laptop.ok("sync")
        #expect(try await setup.laptop.notes().map(\.body) == ["one"])

        try await setup.phone.ok("rm", first)
        _ = try await setup.phone.run("sync")  // still 75: the refused note waits for a save
        try await setup.phone.ok("edit", second, "--body", "kept here, now synced")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        #expect(try await setup.laptop.notes().map(\.body) == ["kept here, now synced"])
    }
}
