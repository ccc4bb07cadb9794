import Foundation

/// Why the trips database refused an operation (SQLite failures surface as `SQLiteError`).
public struct TripsDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// No such trip on this device (or it was deleted).
        case unknownTrip
        /// No such item on this device.
        case unknownItem
        /// The item is deleted: restore it before editing it.
        case deletedItem
        /// No conflict waits on that field.
        case unknownConflict
        /// A value the field cannot hold (a kind, date or time it cannot parse), or a field the
        /// trip or item does not have.
        case invalidValue
        /// A result for another account than the one this database is bound to.
        case wrongAccount
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
