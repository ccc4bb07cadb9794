import Foundation

/// One row of a result, as the text PostgreSQL sent (nil for NULL), with typed readers.
///
/// Each reader throws ``PostgresError`` when the column is missing, NULL where a value is read,
/// or not in the type's text form: a query and its reader disagree.
public struct PostgresRow: Sendable {
    public let values: [String?]

    public init(values: [String?]) {
        self.values = values
    }

    public func isNull(_ column: Int) -> Bool {
        column < values.count && values[column] == nil
    }

    public func optionalText(_ column: Int) throws -> String? {
        guard column < values.count else {
            throw PostgresError.decoding("column \(column) of a row of \(values.count)")
        }
        return values[column]
    }

    public func text(_ column: Int) throws -> String {
        guard let text = try optionalText(column) else {
            throw PostgresError.decoding("column \(column) is NULL")
        }
        return text
    }

    public func optionalInt64(_ column: Int) throws -> Int64? {
        guard let text = try optionalText(column) else { return nil }
        guard let value = Int64(text) else { throw PostgresError.decoding("'\(text)' is not an integer") }
        return value
    }

    public func int64(_ column: Int) throws -> Int64 {
        guard let value = try optionalInt64(column) else {
            throw PostgresError.decoding("column \(column) is NULL")
        }
        return value
    }

    public func int(_ column: Int) throws -> Int {
        Int(try int64(column))
    }

    public func optionalInt(_ column: Int) throws -> Int? {
        try optionalInt64(column).map { Int($0) }
    }

    /// `boolean`'s text form, `t` or `f`.
    public func bool(_ column: Int) throws -> Bool {
        switch try text(column) {
        case "t": return true
        case "f": return false
        case let other: throw PostgresError.decoding("'\(other)' is not a boolean")
        }
    }

    /// `bytea` in its hex output form (`\x…`, PostgreSQL's default since 9.0).
    public func bytes(_ column: Int) throws -> Data {
        let text = Array(try self.text(column).utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"),
            text.count % 2 == 0
        else { throw PostgresError.decoding("a bytea value not in hex form") }
        var data = Data(capacity: (text.count - 2) / 2)
        var index = 2
        while index < text.count {
            guard let high = Self.hexDigit(text[index]), let low = Self.hexDigit(text[index + 1]) else {
                throw PostgresError.decoding("a bytea value with a character that is not hex")
            }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// What a statement returned: its rows (copied out of libpq's result) and how many rows it
/// changed.
public struct PostgresResult: Sendable {
    public let rows: [PostgresRow]
    /// The rows an INSERT, UPDATE or DELETE changed (0 for other statements).
    public let affectedRows: Int

    /// The first row, or nil when there is none.
    public var first: PostgresRow? { rows.first }
}
