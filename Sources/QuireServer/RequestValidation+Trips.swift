import Foundation
import QuireWire

/// The checks of the trips routes: ids, bodies and queries, each refused with a 4xx that names
/// what is wrong. Pure: no storage, no clock.
extension RequestValidation {
    /// A trip or item id: a UUID in lowercase, as devices make them (36 characters).
    static func isLowercaseUUID(_ raw: String) -> Bool {
        raw.count == 36 && UUID(uuidString: raw)?.uuidString.lowercased() == raw
    }

    /// The trip id from the path. Only the lowercase form is accepted: ids are compared as text,
    /// so a device must send the id exactly as it stored it.
    static func tripID(_ raw: String) throws(APIError) -> String {
        guard isLowercaseUUID(raw) else { throw .invalidTripID }
        return raw
    }

    /// A ``CreateTripRequestDTO``: `wrappedKey` base64 of 28 to 1024 bytes.
    static func createTrip(_ body: Data) throws(APIError) -> CreateTripRequestDTO {
        struct Loose: Decodable { var wrappedKey: String? }
        let loose = try object(Loose.self, body, example: #"{"wrappedKey": "…"}"#)
        guard let text = loose.wrappedKey, let key = Data(base64Encoded: text),
            wrappedKeyBytes.contains(key.count)
        else {
            throw .invalidRequest(
                "'wrappedKey' is required: base64 of the sealed trip key, "
                    + "\(wrappedKeyBytes.lowerBound) to \(wrappedKeyBytes.upperBound) bytes.")
        }
        return CreateTripRequestDTO(wrappedKey: text)
    }

    // MARK: - Ops

    private struct LooseOps: Decodable {
        var opId: String?
        var ops: [LooseOp]?
        var keyCheck: String?
    }

    private struct LooseOp: Decodable {
        var item: String?
        var field: String?
        var value: String?
        var valueHash: String?
        var baseRevision: Int?
    }

    static let opsExample =
        #"{"opId": "<uuid>", "ops": [{"item": "<uuid>"|null, "field": "title", "value": "<base64>", "valueHash": "<64 hex>", "baseRevision": 0}]}"#

    /// A ``TripOpsRequestDTO`` as the ops route accepts it: `opId` a lowercase UUID; 1 to
    /// ``WireRoutes/maxTripOps`` ops, each with `item` absent, null or a lowercase UUID, `field`
    /// one of ``TripWireFields`` for its target, `baseRevision` an integer ≥ 0, and a value:
    /// for `deleted` the text `true` or `false` (a `valueHash` is optional), for any other field
    /// null or non-empty base64 of at most ``WireRoutes/maxTripValueBytes`` characters with
    /// `valueHash` (64 lowercase hex digits) present exactly when `value` is. Unknown keys are
    /// ignored so newer clients keep working.
    static func tripOps(_ body: Data) throws(APIError) -> TripOpsRequestDTO {
        let loose = try object(LooseOps.self, body, example: opsExample)
        guard let opId = loose.opId, isLowercaseUUID(opId) else {
            throw .invalidRequest("'opId' is required: a lowercase UUID, the same on every resend.")
        }
        guard let ops = loose.ops, (1...WireRoutes.maxTripOps).contains(ops.count) else {
            throw .invalidRequest(
                "'ops' is required: a list of 1 to \(WireRoutes.maxTripOps) ops, \(opsExample).")
        }
        var checked: [TripOpDTO] = []
        for (index, op) in ops.enumerated() {
            checked.append(try tripOp(op, at: index))
        }
        return TripOpsRequestDTO(opId: opId, ops: checked, keyCheck: try keyCheck(loose.keyCheck))
    }

    /// A key check (``TripKeyCheckText``), or nil when absent.
    static func keyCheck(_ text: String?) throws(APIError) -> String? {
        guard let text else { return nil }
        guard TripKeyCheckText.isWellFormed(text) else {
            throw .invalidRequest(
                "'keyCheck' must be the key's check: \(TripKeyCheckText.length) characters of base64url, or absent.")
        }
        return text
    }

    private static func tripOp(_ op: LooseOp, at index: Int) throws(APIError) -> TripOpDTO {
        let name = "ops[\(index)]"
        if let item = op.item, !isLowercaseUUID(item) {
            throw .invalidRequest("'\(name).item' must be a lowercase UUID, or null for the trip.")
        }
        let allowed = TripWireFields.fields(forItem: op.item)
        guard let field = op.field,
            allowed.contains(field) || (op.item != nil && TripWireFields.photoID(ofField: field) != nil)
        else {
            let target = op.item == nil ? "the trip" : "an item"
            let photos = op.item == nil ? "" : ", or photo.<lowercase uuid> for one of its photos"
            throw .invalidRequest(
                "'\(name).field' must be a field of \(target): "
                    + allowed.sorted().joined(separator: ", ") + photos + ".")
        }
        guard let base = op.baseRevision, base >= 0 else {
            throw .invalidRequest(
                "'\(name).baseRevision' is required: the revision you edited, an integer of at "
                    + "least 0 (0 for a field you never saw on the server).")
        }
        if let hash = op.valueHash, !isHashHex(hash) {
            throw .invalidRequest("'\(name).valueHash' must be 64 lowercase hex digits.")
        }
        if field == WireRoutes.deletedField {
            guard op.value == "true" || op.value == "false" else {
                throw .invalidRequest("'\(name).value' of 'deleted' must be \"true\" or \"false\".")
            }
        } else if let value = op.value {
            guard !value.isEmpty, value.count <= WireRoutes.maxTripValueBytes, TripKeyEpoch.of(value) != nil,
                Data(base64Encoded: String(TripKeyEpoch.unmarked(value))) != nil
            else {
                throw .invalidRequest(
                    "'\(name).value' must be base64 of the sealed value (after 'eN.' for a value sealed "
                        + "with key epoch N ≥ 2), 1 to \(WireRoutes.maxTripValueBytes) characters, or null "
                        + "to clear it.")
            }
            guard op.valueHash != nil else {
                throw .invalidRequest("'\(name).valueHash' is required with a value.")
            }
        } else if op.valueHash != nil {
            throw .invalidRequest("'\(name).valueHash' must be absent or null when 'value' is.")
        }
        return TripOpDTO(
            item: op.item, field: field, value: op.value, valueHash: op.valueHash,
            baseRevision: base)
    }

    /// 64 characters of `0-9a-f`: a hex SHA-256 as devices send it.
    private static func isHashHex(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: - Queries

    /// The trip changes route's parameters: the cursor (nil: from the beginning) and the known
    /// positions (of a device's acknowledged requests, comma-separated, at most
    /// ``WireRoutes/maxKnownPositions``), each opened for `account`'s feed of `trip` with `seal`, and the page size.
    static func tripChangesQuery(_ request: HTTPRequest, trip: String, account: AccountID, seal: CursorSeal)
        throws(APIError) -> (cursor: TripPosition?, known: [TripPosition], limit: Int)
    {
        var limit = WireRoutes.defaultPageLimit
        if let text = request.query["limit"] {
            guard let value = plainInteger(text), (1...WireRoutes.maxPageLimit).contains(value)
            else { throw .invalidLimit }
            limit = value
        }
        let positions = try tripPositions(request, trip: trip, account: account, seal: seal)
        return (positions.cursor, positions.known, limit)
    }

    /// The `cursor` and `known` parameters of a trip route (changes, and ops: the history the
    /// device's bases come from), each opened for `account`'s feed of `trip` with `seal`.
    static func tripPositions(_ request: HTTPRequest, trip: String, account: AccountID, seal: CursorSeal)
        throws(APIError) -> (cursor: TripPosition?, known: [TripPosition])
    {
        var cursor: TripPosition?
        if let text = request.query["cursor"] {
            guard let parsed = TripChangeCursor(text: text, trip: trip, account: account, seal: seal) else {
                throw .invalidTripCursor
            }
            cursor = parsed.position
        }
        var known: [TripPosition] = []
        if let text = request.query["known"] {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= WireRoutes.maxKnownPositions else { throw .invalidTripCursor }
            for part in parts {
                guard let parsed = TripChangeCursor(text: String(part), trip: trip, account: account, seal: seal) else {
                    throw .invalidTripCursor
                }
                known.append(parsed.position)
            }
        }
        return (cursor, known)
    }

    /// The trips feed's parameters, as the notes feed's: `since` (an incremental cursor only),
    /// `limit` and `wait`.
    static func tripsFeedQuery(_ request: HTTPRequest, seal: CursorSeal, account: AccountID) throws(APIError) -> (
        since: FeedPosition?, limit: Int, wait: Int
    ) {
        let query = try changesQuery(request, seal: seal, scope: .tripsFeed(account))
        guard query.since?.listingStart == nil else { throw .invalidCursor }
        return (query.since?.position, query.limit, query.wait)
    }
}
