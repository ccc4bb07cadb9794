import Foundation

/// A value sent as a query parameter, in PostgreSQL's text form; nil is SQL NULL.
///
/// Parameters always travel apart from the SQL text (`$1`, `$2`, …), never spliced into it.
public protocol PostgresBindable: Sendable {
    /// The text PostgreSQL parses into the parameter's type.
    var postgresText: String { get }
}

extension String: PostgresBindable {
    public var postgresText: String { self }
}

extension Int: PostgresBindable {
    public var postgresText: String { String(self) }
}

extension Int64: PostgresBindable {
    public var postgresText: String { String(self) }
}

extension Int32: PostgresBindable {
    public var postgresText: String { String(self) }
}

extension Bool: PostgresBindable {
    public var postgresText: String { self ? "t" : "f" }
}

extension Data: PostgresBindable {
    /// `bytea`'s hex form: `\x` and two hex digits a byte.
    public var postgresText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
