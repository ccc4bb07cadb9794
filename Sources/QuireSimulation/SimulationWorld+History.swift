import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport

// MARK: - The history ledger (issue 10)

extension SimulationWorld {
    /// Promise 2 with history: every text the server ever stored (a save acknowledged, whoever
    /// typed it) is in a note, a conflict copy, the trash or the history, on every device,
    /// whatever the edits, resolutions and deletes since, within retention: a purged tombstone
    /// takes its history with it, and a server restored from a backup forgets what it stored
    /// after the backup. Unlike ``TextLedger/owed``, a user's edit or delete releases nothing.
    ///
    /// Each device looks where `quire history` and `quire trash` look: its notes, its own trash
    /// and history, and the server's through ``NoteHistoryReader`` over its own network and
    /// session, merged by ``NoteHistoryMerge``. Returns the first device's failure, or nil.
    func checkHistoryLedger() async throws -> SimulationFailure? {
        let stored = try acknowledgedSnapshots()
        let owed = ledger.typed.values.filter { TextLedger.holds($0, in: stored) }.sorted { $0.text < $1.text }
        let live = try await serverSnapshots()
        stats.textsOnlyInHistory += owed.count { !TextLedger.holds($0, in: live) }
        for device in devices {
            let found = try await findableTexts(on: device)
            let missing = owed.filter { !TextLedger.holds($0, in: found) }
            guard missing.isEmpty else {
                return SimulationFailure(
                    kind: .lostText,
                    message: "d\(device.index) finds \(missing.map(\.description).joined(separator: "; ")) "
                        + "in none of its notes, its trash or the history, though the server stored it")
            }
        }
        return nil
    }

    /// The texts the server stored and keeps, opened, each once.
    private func acknowledgedSnapshots() throws -> [NoteSnapshot] {
        let codec = PlainPayloadCodec()
        let texts = try storage.acknowledgedTexts.map { text in
            guard let id = NoteID(text.noteID) else {
                throw SimulationError("the server stored a text for a malformed note id \(text.noteID)")
            }
            let content = try codec.open(text.payload, noteID: id)
            return NoteSnapshot(
                id: text.noteID, title: content.title, body: content.body,
                conflictOf: content.conflictOf?.description)
        }
        return Array(Set(texts))
    }

    /// Every text `device` can show: its live notes, its trash and the server's, and the merged
    /// history of each note it can name (as `quire history ID` lists it).
    private func findableTexts(on device: SimulationDevice) async throws -> [NoteSnapshot] {
        let database = try device.database
        let reader = try await device.historyReader()
        var found = try await snapshots(of: device)
        let localTrash = try await database.localTrash()
        let serverTrash = try await reader.trash().notes
        found += localTrash.map { Self.snapshot(of: $0.id, title: $0.title, body: $0.body) }
        found += serverTrash.map { Self.snapshot(of: $0.id, title: $0.last.title, body: $0.last.body) }
        var ids = Set(try await device.rows().map(\.id))
        ids.formUnion(localTrash.map(\.id))
        ids.formUnion(serverTrash.map(\.id))
        for id in ids.sorted(by: { $0.description < $1.description }) {
            var server: [NoteVersion]?
            do {
                server = try await reader.history(of: id).versions
            } catch let error as NotesAPIError where error.status == 404 {
                server = nil  // Never reached the server: this device's texts are all there is.
            }
            let merged = NoteHistoryMerge.merged(server: server, local: try await database.localHistory(of: id))
            found += merged.map { Self.snapshot(of: id, title: $0.title, body: $0.body) }
        }
        return found
    }

    private static func snapshot(of id: NoteID, title: String, body: String) -> NoteSnapshot {
        NoteSnapshot(id: id.description, title: title, body: body, conflictOf: nil)
    }
}
