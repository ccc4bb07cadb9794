import Foundation

extension SyncReport {
    /// Adds `other`'s counts to this report; the first failure stays.
    public mutating func absorb(_ other: SyncReport) {
        pushed += other.pushed
        merged += other.merged
        conflictCopies += other.conflictCopies
        editsBeatDeletes += other.editsBeatDeletes
        fieldConflicts += other.fieldConflicts
        refused += other.refused
        received += other.received
        undecryptable += other.undecryptable
        deferred += other.deferred
        reuploaded += other.reuploaded
        fullResync = fullResync || other.fullResync
        tripsRemoved += other.tripsRemoved
        keysRotated += other.keysRotated
        failure = failure ?? other.failure
    }
}
