import Foundation

/// How both stores keep a ``RecordedAnswer`` in a row of `idempotency_records`: a saved write's
/// facts in columns of their own (NULL for every other record), any other answer as its status
/// and bytes.
extension RecordedAnswer {
    /// The record's columns, in the order ``init(row:at:)`` reads them and ``storedValues`` gives
    /// them.
    static let storedColumns =
        "status, response_body, saved_version, saved_seq, saved_mark, previous_seq, previous_mark"

    /// The answer kept in `row`, whose columns from `first` on are ``storedColumns``.
    init(row: some HistoryRow, at first: Int) throws {
        guard let version = try row.optionalInt64At(first + 2) else {
            self = .response(
                RecordedResponse(status: Int(try row.int64At(first)), body: try row.bytesAt(first + 1)))
            return
        }
        self = .saved(
            version: Int(version),
            position: FeedPosition(seq: try row.int64At(first + 3), mark: try row.optionalInt64At(first + 4)),
            previous: FeedPosition(seq: try row.int64At(first + 5), mark: try row.optionalInt64At(first + 6)))
    }

    /// The values of ``storedColumns``. A saved write's status and bytes are 200 and none: its
    /// answer is built from the facts.
    var storedValues: [HistoryValue] {
        switch self {
        case .saved(let version, let position, let previous):
            [
                .int(200), .bytes(Data()), .int(Int64(version)), .int(position.seq), Self.value(position.mark),
                .int(previous.seq), Self.value(previous.mark),
            ]
        case .response(let response):
            [.int(Int64(response.status)), .bytes(response.body), .null, .null, .null, .null, .null]
        }
    }

    private static func value(_ mark: Int64?) -> HistoryValue {
        mark.map(HistoryValue.int) ?? .null
    }
}
