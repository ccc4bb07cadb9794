import Foundation
import QuireClient
import QuireDomain

// MARK: - trash

extension QuireCommandLine {
    /// One deleted note `trash` lists: from the server's trash, this device's, or both.
    typealias TrashEntry = NoteTrashListing.Entry

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
                "\(entry.id.short)  \(title)  deleted \(HistoryText.time(entry.deletedAt))\(unsent)")
        }
        console.out("Bring one back with: quire restore ID")
    }

    /// The server's trash (when signed in and reachable) and this device's, each note once,
    /// most recently deleted first. A note live on this device (its delete not pulled yet) is
    /// listed from the server's trash all the same.
    func trashListing(in device: QuireDevice, reader: NoteHistoryReader?) async throws -> (
        entries: [TrashEntry], serverProblem: String?
    ) {
        let listing = try await NoteTrashListing.read(database: device.database, reader: reader)
        var problem = listing.serverError.map {
            "the server's trash could not be read (\(Self.withoutRawCodes($0.message))); showing this device's only"
        }
        if listing.unreadable > 0 {
            problem = "\(listing.unreadable) deleted note(s) on the server could not be opened with this account's key"
        }
        return (listing.entries, problem)
    }
}
