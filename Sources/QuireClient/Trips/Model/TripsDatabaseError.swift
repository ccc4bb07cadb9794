import Foundation

/// Why the trips database refused an operation (SQLite failures surface as `SQLiteError`).
public typealias TripsDatabaseError = KindedError<TripsDatabaseErrorKind>

/// What a ``TripsDatabaseError`` is about.
public enum TripsDatabaseErrorKind: Hashable, Sendable {
    /// No such trip on this device (or it was deleted).
    case unknownTrip
    /// No such item on this device.
    case unknownItem
    /// The item is deleted: restore it before editing it.
    case deletedItem
    /// No conflict waits on that field.
    case unknownConflict
    /// Only an owner of the trip may do that (delete or restore the trip itself).
    case ownersOnly
    /// A value the field cannot hold (a kind, date or time it cannot parse), or a field the
    /// trip or item does not have.
    case invalidValue
    /// A result for another account than the one this database is bound to.
    case wrongAccount
}
