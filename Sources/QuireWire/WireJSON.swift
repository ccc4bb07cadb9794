import Foundation

/// The JSON settings both ends of the wire use: ISO 8601 dates with milliseconds, sorted keys.
public enum WireJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date, got \(text)")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-29T12:43:59.123Z`.
    public static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public static func parseDate(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Encodes with ``encoder()``. Encoding these plain DTOs cannot fail short of a bug.
    public static func encode<T: Encodable>(_ value: T) -> Data {
        do {
            return try encoder().encode(value)
        } catch {
            preconditionFailure("encoding \(T.self) failed: \(error)")
        }
    }
}
