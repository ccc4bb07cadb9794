import Foundation
import QuireDomain

/// A note's history and the trash for the history and trash screens, as `quire history`, `quire
/// trash` and `quire restore` read and write them: the server's part (when signed in) merged with
/// this device's, each restore an ordinary change that syncs.
public struct DeviceNoteHistoryRepository: NoteHistoryRepository {
    private let database: NotesDatabase
    private let makeReader: @Sendable () async throws -> NoteHistoryReader?

    /// - Parameter makeReader: the server's reader, made for each read (nil when signed out).
    public init(database: NotesDatabase, makeReader: @escaping @Sendable () async throws -> NoteHistoryReader?) {
        self.database = database
        self.makeReader = makeReader
    }

    /// Over `device`: its database, and a reader of its signed-in account's server.
    public init(device: QuireDevice) {
        self.init(database: device.database) { try await device.makeHistoryReader() }
    }

    public func history(of id: NoteID) async throws -> NoteHistory {
        let listing = try await NoteHistoryListing.read(id, database: database, reader: try await makeReader())
        return NoteHistory(
            versions: listing.versions.map(Self.version),
            problem: Self.problem(listing.serverError, unreadable: listing.unreadable))
    }

    /// Reads the history again and restores the version `reference` names; throws
    /// ``NoteHistoryError/noSuchVersion`` when it has none.
    public func restore(_ id: NoteID, version reference: String) async throws -> Bool {
        let listing = try await NoteHistoryListing.read(id, database: database, reader: try await makeReader())
        guard let version = listing.versions.first(where: { $0.reference == reference }) else {
            throw NoteHistoryError.noSuchVersion(reference)
        }
        return try await listing.restore(version, in: database)
    }

    public func trash() async throws -> NoteTrash {
        let listing = try await NoteTrashListing.read(database: database, reader: try await makeReader())
        return NoteTrash(
            notes: listing.entries.map {
                TrashedNote(
                    id: $0.id, text: NoteText(title: $0.title, body: $0.body), deletedAt: $0.deletedAt,
                    deleteUnsent: $0.deleteUnsent)
            },
            problem: Self.problem(listing.serverError, unreadable: listing.unreadable))
    }

    /// Reads the trash again and restores the note; throws ``NoteHistoryError/notInTrash`` when
    /// it is not there (restored on another device since).
    public func restoreFromTrash(_ id: NoteID) async throws {
        let listing = try await NoteTrashListing.read(database: database, reader: try await makeReader())
        guard let entry = listing.entries.first(where: { $0.id == id }) else { throw NoteHistoryError.notInTrash }
        try await NoteTrashListing.restore(entry, in: database)
    }

    static func version(_ version: NoteVersion) -> NoteHistoryVersion {
        NoteHistoryVersion(
            reference: version.reference, savedAt: version.savedAt, text: version.text,
            typedOn: version.typedHere ? nil : (version.typedOn?.name ?? ""), isCurrent: version.isCurrent)
    }

    static func problem(_ error: NotesAPIError?, unreadable: Int) -> RemoteReadProblem? {
        if unreadable > 0 { return .unreadable(count: unreadable) }
        return error.map { .unavailable(reason: $0.message) }
    }
}
