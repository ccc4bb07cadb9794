import Foundation
import QuireTestSupport
import Testing

/// `quire history`, `trash` and `restore` on two devices through a real `quire-server`: a wrong
/// resolution, a delete and a superseded edit are all undone, and both devices follow (issue 10).
@Suite struct HistoryThroughARealServerTests {
    struct Version: Decodable, Equatable {
        var version: Int?
        var ref: String
        var savedAt: Date
        var device: String
        var title: String
        var body: String
        var current: Bool
    }

    struct Trashed: Decodable, Equatable {
        var id: String
        var title: String
        var body: String
        var onServer: Bool
    }

    static func history(_ device: CLIDevice, _ id: String) async throws -> [Version] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Version].self, from: Data(try await device.ok("history", id, "--json").utf8))
    }

    static func trash(_ device: CLIDevice) async throws -> [Trashed] {
        try JSONDecoder().decode([Trashed].self, from: Data(try await device.ok("trash", "--json").utf8))
    }

    @Test func aWrongResolutionIsUndoneFromTheHistoryOnEitherDevice() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }
        let (phone, laptop) = (setup.phone, setup.laptop)
        let id = try await phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try await phone.ok("sync")
        try await laptop.ok("sync")
        try await phone.ok("edit", id, "--body", "oat milk\neggs")
        try await laptop.ok("edit", id, "--body", "whole milk\neggs")
        try await phone.ok("sync")
        try await laptop.ok("sync")

        // The laptop keeps its own text: the phone's "oat milk" leaves every note.
        let resolved = try await laptop.ok("resolve", id, "--keep", "mine")
        #expect(resolved.contains("undo: quire history \(id.suffix(8))"))
        try await laptop.ok("sync")
        try await phone.ok("sync")
        #expect(try await phone.notes().map(\.body) == ["whole milk\neggs"])

        // It is still in the history, on both devices, labelled by where it was typed.
        for (device, typedOn) in [(phone, "this device"), (laptop, "phone")] {
            let history = try await Self.history(device, id)
            #expect(history.first?.current == true)
            #expect(history.first?.body == "whole milk\neggs")
            let lost = try #require(history.first { $0.body == "oat milk\neggs" })
            #expect(lost.device == typedOn)
            #expect(lost.version != nil)
            #expect(history.contains { $0.body == "milk\neggs" })
        }
        let oat = try #require(try await Self.history(laptop, id).first { $0.body == "oat milk\neggs" })
        #expect(try await laptop.ok("show", id, "--version", oat.ref) == "Groceries\n\noat milk\neggs")
        let listing = try await laptop.ok("history", String(id.suffix(8)))
        #expect(listing.contains("phone"))
        #expect(listing.contains("Groceries"))

        // Restored on the phone: an ordinary change that both devices follow.
        let restored = try await phone.ok("restore", id, "--version", oat.ref)
        #expect(restored.hasPrefix("Restored version \(oat.ref) of \(id.suffix(8))"))
        try await phone.ok("sync")
        try await laptop.ok("sync")
        for device in [phone, laptop] {
            #expect(try await device.notes().map(\.body) == ["oat milk\neggs"])
            // The restored version is itself in the history, and so is the text it replaced.
            let after = try await Self.history(device, id)
            #expect(after.first?.current == true)
            #expect(after.first?.body == "oat milk\neggs")
            #expect((after.first?.version ?? 0) > (oat.version ?? 0))
            #expect(after.contains { $0.body == "whole milk\neggs" && !$0.current })
        }
        // The server's history is ciphertext: no text of any version is in its files. (The
        // session's device name is the server's to know; the label sealed in each text is not.)
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: setup.root.path("server.sqlite" + suffix))) ?? Data()
            for text in ["oat milk", "whole milk", "Groceries"] {
                #expect(bytes.range(of: Data(text.utf8)) == nil, "'\(text)' in server.sqlite\(suffix)")
            }
        }
    }

    @Test func aNoteDeletedOnOneDeviceIsInTheOthersTrashAndComesBackOnBoth() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }
        let (phone, laptop) = (setup.phone, setup.laptop)
        let id = try await phone.ok("new", "--title", "Trip", "--body", "pack the charger")
        try await phone.ok("sync")
        try await laptop.ok("sync")

        let removed = try await phone.ok("rm", id)
        #expect(removed.hasSuffix("(undo: quire restore \(id.suffix(8)))."))
        // Before the sync the phone's trash has it already (its delete not sent).
        #expect(
            try await Self.trash(phone) == [Trashed(id: id, title: "Trip", body: "pack the charger", onServer: false)])
        try await phone.ok("sync")
        try await laptop.ok("sync")
        #expect(try await laptop.notes().isEmpty)

        #expect(
            try await Self.trash(laptop) == [Trashed(id: id, title: "Trip", body: "pack the charger", onServer: true)])
        #expect(try await laptop.ok("trash").contains("\(id.suffix(8))  Trip  deleted"))
        let restored = try await laptop.ok("restore", String(id.suffix(8)))
        #expect(restored.hasPrefix("Restored \(id.suffix(8)) \"Trip\" from the trash"))
        try await laptop.ok("sync")
        try await phone.ok("sync")

        for device in [phone, laptop] {
            let notes = try await device.notes()
            #expect(notes.map(\.id) == [id])
            #expect(notes.map(\.body) == ["pack the charger"])
            #expect(try await device.ok("trash") == "The trash is empty.")
        }
    }

    @Test func anEditSupersededBeforeItWasSentIsInThisDevicesHistoryAndWorksOffline() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }
        let phone = setup.phone
        let id = try await phone.ok("new", "--title", "Essay", "--body", "first draft")
        try await phone.ok("sync")
        try await phone.ok("edit", id, "--body", "second draft")
        try await phone.ok("edit", id, "--body", "third draft")
        try await phone.ok("sync")

        // "second draft" never reached the server: only this device kept it.
        let history = try await Self.history(phone, id)
        #expect(history.map(\.body) == ["third draft", "second draft", "first draft"])
        let second = history[1]
        #expect(second.version == nil)
        #expect(second.ref.hasPrefix("L"))
        #expect(history[2].version == 1)

        // With the server gone, the history is this device's, and a restore still works.
        setup.server.terminate()
        let offline = try await phone.run("history", id, "--json")
        #expect(offline.exitCode == 0)
        #expect(offline.stderr.contains("could not be read"))
        #expect(offline.stdout.contains("second draft"))
        let restored = try await phone.run("restore", id, "--version", second.ref)
        #expect(restored.exitCode == 0)
        #expect(try await phone.ok("show", id) == "Essay\n\nsecond draft")
    }

    @Test func badInputGetsOneLineSayingWhatToDoAndTheUsualExitCode() async throws {
        let setup = try await TwoCLIDevices(namingDevices: true)
        defer { setup.tearDown() }
        let phone = setup.phone
        let id = try await phone.ok("new", "--title", "Groceries", "--body", "milk")
        try await phone.ok("edit", id, "--body", "oat milk")
        try await phone.ok("sync")
        let before = try await phone.notes()
        let cases: [([String], Int32, String)] = [
            (["history"], 64, "usage"),
            (["history", "ffffffff"], 65, "quire trash"),
            (["show", id, "--version", "abc"], 64, "quire history ID"),
            (["show", id, "--version", "99"], 65, "see quire history"),
            (["restore", id, "--version", "0"], 64, "quire history ID"),
            (["restore", id], 64, "--version N"),
            (["restore", "ffffffff-0000-4000-8000-000000000000"], 65, "quire trash"),
            (["trash", "extra"], 64, "usage"),
        ]
        for (arguments, code, advice) in cases {
            let result = try await ProcessRunner.run(
                try BuiltProducts.executable("quire"), ["--data-dir", phone.directory.path] + arguments)
            #expect(result.exitCode == code, "\(arguments): \(result.stderr)")
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("quire: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.lowercased().contains(advice.lowercased()), "\(arguments): \(result.stderr)")
        }
        #expect(try await phone.notes() == before)
    }
}
