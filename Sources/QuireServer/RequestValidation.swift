import Foundation
import QuireCrypto
import QuireWire

/// The checks that turn raw request parts into validated values, or into the 4xx that says what is
/// wrong. Pure: no storage, no clock.
enum RequestValidation {
    /// The note id from the path as a lowercase UUID. Any letter case is accepted.
    static func noteID(_ raw: String) throws(APIError) -> String {
        // The canonical form (every id a device sends) in one pass; anything else as Foundation reads it.
        if let plain = UUIDText.lowercased(raw) { return plain }
        guard raw.count == 36, let uuid = UUID(uuidString: raw) else { throw .invalidNoteID }
        return uuid.uuidString.lowercased()
    }

    /// The bearer token of `Authorization: Bearer <token>`, or nil.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.header("Authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = trimmingWhitespace(parts[1])
        return token.isEmpty ? nil : token
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without the trip through `NSString` when
    /// there is nothing to trim: a first and last byte that are printable ASCII other than a space
    /// (every token the server issues) are no whitespace.
    static func trimmingWhitespace(_ text: Substring) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last,
            (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last)
        else { return text.trimmingCharacters(in: .whitespaces) }
        return String(text)
    }

    /// The `Idempotency-Key` header: 1 to 200 characters.
    static func idempotencyKey(_ request: HTTPRequest) throws(APIError) -> String {
        guard let key = request.header(WireRoutes.idempotencyKeyHeader),
            (1...200).contains(key.count)
        else { throw .missingIdempotencyKey }
        return key
    }

    /// SHA-256 hex of method, path, canonical query and body: equal only for the same request.
    /// The head and the body are hashed in turn, so the body (a note's few KB) is not copied.
    static func fingerprint(_ request: HTTPRequest) -> String {
        let hasher = SHA256Hasher()
        hasher.update(Data("\(request.method)\n\(request.path)\n\(request.canonicalQuery)\n".utf8))
        hasher.update(request.body)
        return HexText.string(hasher.finish())
    }

    // MARK: - Bodies

    struct LoosePutBody: Decodable, Equatable {
        var payload: String?
        var baseVersion: Int?
        var baseVersionTag: String?
    }

    /// Decodes a `PutNoteRequestDTO`: `payload` a non-empty string, `baseVersion` absent, null or an
    /// integer ≥ 1. Unknown fields are ignored so newer clients keep working.
    ///
    /// The body is parsed once when it is good; only a body that fails is parsed again, to say
    /// whether it is not JSON, not an object, or an object with a wrong field.
    static func putBody(_ body: Data) throws(APIError) -> PutNoteRequestDTO {
        let loose = try decodePutBody(body)
        guard let payload = loose.payload, !payload.isEmpty else {
            throw .invalidRequest("'payload' is required: a non-empty string (the sealed note).")
        }
        if let base = loose.baseVersion, base < 1 {
            throw .invalidRequest(
                "'baseVersion' must be an integer of at least 1, or null for a new note.")
        }
        _ = try versionTag(loose.baseVersionTag, name: "baseVersionTag")
        return PutNoteRequestDTO(
            payload: payload, baseVersion: loose.baseVersion, baseVersionTag: loose.baseVersionTag)
    }

    /// A PUT body read by `JSONDecoder`; a body it refuses is parsed again, to say whether it is
    /// not JSON, not an object, or an object with a wrong field.
    private static func decodePutBody(_ body: Data) throws(APIError) -> LoosePutBody {
        if let plain = LoosePutBody(directJSON: body) { return plain }
        do {
            return try JSONDecoder().decode(LoosePutBody.self, from: body)
        } catch {
            let json: Any
            do {
                json = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
            } catch {
                throw .invalidJSON(body.isEmpty ? "the body is empty" : "it does not parse")
            }
            guard json is [String: Any] else {
                throw .invalidRequest(
                    #"The body must be a JSON object: {"payload": "…", "baseVersion": null}."#)
            }
            if let error = error as? DecodingError { throw .invalidRequest(describe(error)) }
            throw .invalidRequest("The body could not be read as a note: \(error).")
        }
    }

    /// A version tag the server issued (see ``BaseVersion``): 1 to 15 decimal digits naming a
    /// mark; nil when absent.
    static func versionTag(_ text: String?, name: String) throws(APIError) -> Int64? {
        guard let text else { return nil }
        // The document's pattern, ^[1-9][0-9]{0,14}$: a tag above any mark the server draws
        // (``FeedPosition/maxMark``) is one it never gave out, so a stale base (409), not 400.
        guard (1...15).contains(text.count), text.first != "0", text.allSatisfy({ ("0"..."9").contains($0) }),
            let tag = Int64(text)
        else {
            throw .invalidRequest(
                "'\(name)' must be the versionTag the server sent with that version "
                    + "(1 to 15 digits), or left out.")
        }
        return tag
    }

    /// `baseVersion` and `baseVersionTag` of a DELETE.
    static func deleteBase(_ request: HTTPRequest) throws(APIError) -> BaseVersion {
        BaseVersion(
            number: try deleteBaseVersion(request),
            tag: try versionTag(request.query["baseVersionTag"], name: "baseVersionTag"))
    }

    private static func describe(_ error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default:
            path = []
        }
        switch path.first?.stringValue {
        case "payload":
            return "'payload' must be a non-empty string (the sealed note)."
        case "baseVersion":
            return "'baseVersion' must be an integer of at least 1, or null for a new note."
        case "baseVersionTag":
            return "'baseVersionTag' must be a string: the versionTag of the base version."
        default:
            return "The body must be a JSON object with 'payload' (string) and 'baseVersion'."
        }
    }

    // MARK: - Query items

    /// `baseVersion` of a DELETE: required, an integer ≥ 1.
    static func deleteBaseVersion(_ request: HTTPRequest) throws(APIError) -> Int {
        guard let text = request.query["baseVersion"], let base = plainInteger(text), base >= 1
        else {
            throw .invalidRequest(
                "'baseVersion' is required in the query: the note's version you deleted, "
                    + "an integer of at least 1 (DELETE /v1/notes/{id}?baseVersion=3).")
        }
        return base
    }

    /// The changes feed's parameters: cursor (nil for a full resync), positions of writes the
    /// device had acknowledged (incremental cursors from write answers, comma-separated, at most
    /// ``WireRoutes/maxKnownPositions``), page size, and wait seconds. Cursors open with `seal`
    /// for `scope` only (or are plain forms of earlier servers).
    static func changesQuery(_ request: HTTPRequest, seal: CursorSeal, scope: CursorScope) throws(APIError) -> (
        since: ChangeCursor?, known: [ChangeCursor], limit: Int, wait: Int
    ) {
        var limit = WireRoutes.defaultPageLimit
        if let text = request.query["limit"] {
            guard let value = plainInteger(text), (1...WireRoutes.maxPageLimit).contains(value)
            else { throw .invalidLimit }
            limit = value
        }
        var wait = 0
        if let text = request.query["wait"] {
            guard let value = plainInteger(text), (0...WireRoutes.maxWaitSeconds).contains(value)
            else { throw .invalidWait }
            wait = value
        }
        var since: ChangeCursor?
        if let text = request.query["since"] {
            guard let cursor = ChangeCursor(text: text, seal: seal, scope: scope) else { throw .invalidCursor }
            since = cursor
        }
        var known: [ChangeCursor] = []
        if let text = request.query["known"] {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= WireRoutes.maxKnownPositions else { throw .invalidCursor }
            for part in parts {
                guard let cursor = ChangeCursor(text: String(part), seal: seal, scope: scope), !cursor.fullListing
                else {
                    throw .invalidCursor
                }
                known.append(cursor)
            }
        }
        return (since, known, limit, wait)
    }

    /// Whether a changes request asks for its own writes' payloads to be left out of a full
    /// listing too (`ownPayloads=omit`); absent: no.
    static func omitsOwnPayloads(_ request: HTTPRequest) throws(APIError) -> Bool {
        guard let text = request.query["ownPayloads"] else { return false }
        guard text == "omit" else {
            throw .invalidRequest("'ownPayloads' takes only 'omit'; leave it out to get every payload.")
        }
        return true
    }

    /// Digits only (an optional leading minus), at most 18 of them: no `+5`, ` 5` or `5.0`.
    static func plainInteger(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= "0" && $0 <= "9" })
        else { return nil }
        return Int(text)
    }
}
