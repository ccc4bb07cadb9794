import Foundation
import QuirePostgres

/// Tombstone purges and the pruning of marks in the PostgreSQL store: the statements of
/// ``RetentionQueries``, with ``SQLiteServerStorage``'s rules exactly.
extension PostgresServerStorage {
    /// Every batch of ``purgeTombstoneBatch(olderThan:limit:)`` until none is left, each its
    /// own transaction.
    public func purgeTombstones(olderThan cutoff: Date) async throws -> Int {
        var purged = 0
        var batch: PurgeBatch
        repeat {
            batch = try await purgeTombstoneBatch(olderThan: cutoff, limit: SQLiteServerStorage.purgeBatchSize)
            purged += batch.tombstones
        } while batch.mayHaveMore
        return purged
    }
}
