import Foundation
import QuireDomain
import QuireSQLite

// MARK: - A first listing that leaves this device's own writes out

extension NotesDatabase {
    /// Applies a page of a first listing whose own writes came without payloads, in one
    /// transaction: each of `own` must match this device's copy (same version, same known tag,
    /// not deleted here), and is confirmed as a listed copy no newer than the local one would be
    /// (so ``finishFullResync()`` keeps it); then the rest of the page as ``apply(_:cursor:account:)``.
    /// Returns how many notes of `changes` changed here, as ``apply(_:cursor:account:)`` does (a
    /// confirmed own write changes none). A single mismatch writes nothing and returns nil: the
    /// caller fetches the page's payloads, since only a payload can show what the server holds then.
    public func apply(
        _ changes: [RemoteNote], confirming own: [ListedOwnWrite], cursor: Cursor, account: AccountID
    ) throws -> Int? {
        try pageWrite(notes: changes.count + own.count) { touched in
            try checkAccount(account)
            for write in own {
                guard let local = try storedNote(write.id), !local.deleted, local.version == write.version,
                    let tag = write.versionTag, local.versionTag == tag
                else { return nil }
            }
            for write in own where try !hasPendingChange(write.id) {
                try connection.run("UPDATE notes SET confirmed = 1 WHERE id = ?", write.id.description)
            }
            return try applyPage(changes, cursor: cursor, touched: &touched)
        }
    }
}
