import Foundation

/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// Values that bind directly as statement parameters.
public protocol SQLiteBindable {
    var sqliteValue: SQLiteValue { get }
}

extension Int: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}
extension Int64: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .integer(self) }
}
extension Bool: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}
extension Double: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .real(self) }
}
extension String: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .text(self) }
}
extension Data: SQLiteBindable {
    public var sqliteValue: SQLiteValue { .blob(self) }
}
extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    public var sqliteValue: SQLiteValue {
        switch self {
        case .none: .null
        case .some(let value): value.sqliteValue
        }
    }
}
extension SQLiteValue: SQLiteBindable {
    public var sqliteValue: SQLiteValue { self }
}
