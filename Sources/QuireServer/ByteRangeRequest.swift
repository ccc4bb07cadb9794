/// A download's `Range` header (RFC 9110 §14): one range of bytes, `bytes=FIRST-LAST`,
/// `bytes=FIRST-` or the suffix `bytes=-COUNT`, read against the length of what is downloaded.
///
/// Only one range: a client resuming a download asks for the bytes from where its file ends
/// (``QuireClient``'s photo download does). Several ranges in one request (`bytes=0-9,20-29`)
/// are refused as malformed rather than answered as a multipart body.
struct ByteRangeRequest: Equatable {
    /// The first byte asked for, and the last (inclusive), or nil for "to the end".
    enum Form: Equatable {
        case from(Int64, through: Int64?)
        case suffix(Int64)
    }

    let form: Form

    /// The header's range; nil when there is no header, or when its one range names no bytes.
    /// Throws ``APIError/invalidRange`` for a header that is not one `bytes=` range.
    static func parse(_ header: String?) throws(APIError) -> ByteRangeRequest? {
        guard let header else { return nil }
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes="), !text.contains(Character(",")) else { throw .invalidRange }
        let spec = text.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-") else { throw .invalidRange }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        let digits = { (part: Substring) in part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard digits(first), digits(last), !(first.isEmpty && last.isEmpty) else { throw .invalidRange }
        // A range of the right form that names no bytes (last before first, a suffix of 0, a
        // number past Int64) is ignored, as RFC 9110 §14.2 lets a server: the whole is answered
        // as without `Range` (schemathesis' ST202 counted the 400 as a valid request refused).
        if first.isEmpty {
            guard let count = Int64(last), count > 0 else { return nil }
            return ByteRangeRequest(form: .suffix(count))
        }
        guard let start = Int64(first) else { return nil }
        if last.isEmpty { return ByteRangeRequest(form: .from(start, through: nil)) }
        guard let end = Int64(last), end >= start else { return nil }
        return ByteRangeRequest(form: .from(start, through: end))
    }

    /// The bytes this range names in something `length` bytes long, clipped to its end; nil when
    /// none of them exist (a start at or past the end: 416).
    func bytes(ofLength length: Int64) -> Range<Int64>? {
        switch form {
        case .suffix(let count):
            guard length > 0 else { return nil }
            return max(0, length - count)..<length
        case .from(let start, let end):
            guard start < length else { return nil }
            return start..<min(length, (end ?? length - 1) + 1)
        }
    }
}
