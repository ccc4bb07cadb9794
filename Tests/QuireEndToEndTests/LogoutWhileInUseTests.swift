import Foundation
import QuireTestSupport
import Testing

/// `quire logout` erases the device's database. Another `quire` process on the same data
/// directory (an editor open in `quire edit`, `quire watch`) kept writing to the erased file: the
/// edit said "Saved" about text that then existed nowhere. Logout now refuses while another
/// process uses the device, erases nothing, and says what to close.
@Suite struct LogoutWhileInUseTests {
    @Test func logoutRefusesWhileAnEditIsOpenAndTheEditIsKept() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Plan", "--body", "meet at one")
        try await setup.phone.ok("sync")
        // An editor that says it is open, then waits for the test's word before it saves.
        let started = setup.root.path("editor-started")
        let go = setup.root.path("editor-go")
        let editor = setup.root.path("slow-editor.sh")
        try """
        #!/bin/sh
        touch '\(started.path)'
        while [ ! -f '\(go.path)' ]; do sleep 0.02; done
        printf '\\nIMPORTANT typed while logging out\\n' >> "$1"

        """.write(to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)

        async let edit = setup.phone.run("edit", id, environment: ["EDITOR": editor.path])
        #expect(await eventually(timeout: 30) { FileManager.default.fileExists(atPath: started.path) })

        let logout = try await setup.phone.run("logout", "--force")
        #expect(logout.exitCode == 75, "\(logout.stdout)\(logout.stderr)")
        #expect(logout.stderr.contains("quire edit"), "\(logout.stderr)")
        #expect(logout.stderr.contains("nothing was erased"), "\(logout.stderr)")

        #expect(FileManager.default.createFile(atPath: go.path, contents: nil))
        let edited = try await edit
        #expect(edited.exitCode == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("Saved"))
        // Still signed in, the edit stored and sent: nothing was lost.
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        #expect(try await setup.laptop.notes().first?.body.contains("IMPORTANT typed while logging out") == true)
        // With nothing else open, logout goes ahead.
        #expect(try await setup.phone.ok("logout").contains("Signed out"))
    }

    /// An editor killed with its `quire edit` leaves the note's plain text in the data directory:
    /// the next edit says where it is (it is the person's), and logout, which says the device's
    /// notes were erased, erases it too.
    @Test func aKilledEditsTextIsPointedOutThenErasedByLogout() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Plan", "--body", "meet at one")
        let editor = setup.root.path("killing-editor.sh")
        try """
        #!/bin/sh
        printf 'typed before the crash\n' >> "$1"
        # quire runs the editor through sh -c: kill quire, the editor's grandparent
        kill -9 $(ps -o ppid= -p $PPID | tr -d ' ')

        """.write(to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let killed = try await setup.phone.run("edit", id, environment: ["EDITOR": editor.path])
        #expect(killed.exitCode != 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: setup.phone.directory.path)
            .filter { $0.hasPrefix("edit-") }
        #expect(left.count == 1)

        let next = try await setup.phone.run("edit", id, "--body", "meet at two")
        #expect(next.exitCode == 0)
        #expect(next.stderr.contains(left.first ?? "-") && next.stderr.contains("interrupted"), "\(next.stderr)")

        try await setup.phone.ok("sync")
        try await setup.phone.ok("logout")
        let after = try FileManager.default.contentsOfDirectory(atPath: setup.phone.directory.path)
        #expect(!after.contains { $0.hasPrefix("edit-") }, "\(after)")
    }
}
