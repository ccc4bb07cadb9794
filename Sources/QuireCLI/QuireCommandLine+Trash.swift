import Foundation
import QuireClient
import QuireDomain

// MARK: - trash

extension QuireCommandLine {
    /// One deleted note `trash` lists: from the server's trash, this device's, or both.
    struct TrashEntry {
        var id: NoteID
        var title: String
        var body: String
        var deletedAt: Date
        var conflictOf: NoteID?
        /// The tombstone on the server, when it has it: what a restore is written on.
        var server: ServerNoteState?
        /// Deleted here; the delete has not reached the server.
        var deleteUnsent: Bool
    }

    func trash(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        let listing = try await trashListing(in: device, reader: try await device.makeHistoryReader())
        if let problem = listing.serverProblem { console.err("quire: \(problem)") }
        if arguments.flag("json") {
            try console.json(listing.entries.map(TrashJSON.init))
            return
        }
        guard !listing.entries.isEmpty else {
            console.out("The trash is empty.")
            return
        }
        for entry in listing.entries {
            let title = entry.title.isEmpty ? "(untitled)" : entry.title
            let unsent = entry.deleteUnsent ? "  [delete not synced]" : ""
            console.out(
                "\(entry.id.description.prefix(8))  \(title)  deleted \(HistoryText.time(entry.deletedAt))\(unsent)")
        }
        console.out("Bring one back with: quire restore ID")
    }

    /// The server's trash (when signed in and reachable) and this device's, each note once,
    /// most recently deleted first. A note live on this device (its delete not pulled yet) is
    /// listed from the server's trash all the same.
    func trashListing(in device: QuireDevice, reader: NoteHistoryReader?) async throws -> (
        entries: [TrashEntry], serverProblem: String?
    ) {
        var entries: [NoteID: TrashEntry] = [:]
        for note in try await device.database.localTrash() {
            entries[note.id] = TrashEntry(
                id: note.id, title: note.title, body: note.body, deletedAt: note.deletedAt, conflictOf: nil,
                server: nil, deleteUnsent: note.deleteUnsent)
        }
        var problem: String?
        if let reader {
            do {
                let trash = try await reader.trash()
                for note in trash.notes where entries[note.id]?.deleteUnsent != true {
                    entries[note.id] = TrashEntry(
                        id: note.id, title: note.last.title, body: note.last.body, deletedAt: note.deletedAt,
                        conflictOf: note.conflictOf,
                        server: ServerNoteState(version: note.version, versionTag: note.versionTag, deleted: true),
                        deleteUnsent: false)
                }
                if trash.unreadable > 0 {
                    problem =
                        "\(trash.unreadable) deleted note(s) on the server could not be opened with this account's key"
                }
            } catch let error as NotesAPIError {
                problem =
                    "the server's trash could not be read (\(Self.withoutRawCodes(error.message))); "
                    + "showing this device's only"
            }
        }
        let sorted = entries.values.sorted { ($0.deletedAt, $0.id) > ($1.deletedAt, $1.id) }
        return (sorted, problem)
    }
}
