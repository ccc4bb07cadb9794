import Foundation
import QuireWire

#if canImport(Glibc)
    import Glibc
#endif

/// The tus headers of the upload routes, read and checked.
extension RequestValidation {
    /// The longest `Upload-Metadata` the server keeps.
    static let maxUploadMetadataLength = 4096

    /// Refuses a request without `Tus-Resumable: 1.0.0` (every tus request but OPTIONS has it).
    static func tusVersion(_ request: HTTPRequest) throws(APIError) {
        guard request.header("Tus-Resumable")?.trimmingCharacters(in: .whitespaces) == WireRoutes.tusVersion else {
            throw .tusVersionUnsupported
        }
    }

    /// `Upload-Length`: a whole number of bytes from 0.
    static func uploadLength(_ request: HTTPRequest) throws(APIError) -> Int64 {
        guard let value = request.header("Upload-Length"), let length = byteCount(value) else {
            throw .invalidUploadLength
        }
        return length
    }

    /// `Upload-Offset`: a whole number of bytes from 0.
    static func uploadOffset(_ request: HTTPRequest) throws(APIError) -> Int64 {
        guard let value = request.header("Upload-Offset"), let offset = byteCount(value) else {
            throw .invalidUploadOffset
        }
        return offset
    }

    /// Digits only (no sign, no spaces inside), at most 18 of them: no overflow when added to.
    private static func byteCount(_ text: String) -> Int64? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard (1...18).contains(digits.utf8.count), digits.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int64(digits)
    }

    /// `Upload-Metadata` as sent, checked (empty when absent or empty, as tuspy sends it with no
    /// metadata): pairs separated by commas, each a key without spaces or commas, unique, and an
    /// optional base64 value after one space.
    static func uploadMetadata(_ request: HTTPRequest) throws(APIError) -> String {
        let text = (request.header("Upload-Metadata") ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return "" }
        guard text.utf8.count <= maxUploadMetadataLength else { throw .invalidUploadMetadata }
        var keys = Set<Substring>()
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(
                separator: " ", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let key = parts.first, !key.isEmpty,
                key.utf8.allSatisfy({ (33...126).contains($0) }), keys.insert(key).inserted
            else { throw .invalidUploadMetadata }
            if parts.count == 2, !parts[1].isEmpty, Data(base64Encoded: String(parts[1])) == nil {
                throw .invalidUploadMetadata
            }
        }
        return text
    }

    /// Whether the PATCH body is declared as `application/offset+octet-stream`.
    static func uploadContentType(_ request: HTTPRequest) throws(APIError) {
        let type = request.header("Content-Type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard type == WireRoutes.uploadContentType else { throw .invalidUploadContentType }
    }

    /// An upload id as the server makes them (32 lowercase hex digits), or nil.
    static func uploadID(_ text: String) -> String? {
        text.utf8.count == 32 && text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            ? text : nil
    }

    /// `date` as an HTTP date (RFC 9110's IMF-fixdate, `Upload-Expires`):
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
