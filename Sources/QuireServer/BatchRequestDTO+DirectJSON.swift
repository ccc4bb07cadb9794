import Foundation
import QuireWire

extension BatchRequestDTO {
    /// The batch in `body` read by ``DirectJSONReader``; nil wherever it gives up, or the body
    /// is anything but an object whose one key `changes` holds objects with the keys of
    /// ``BatchChangeDTO``, each at most once (`op`, `id` and `idempotencyKey` strings; `payload`
    /// and `baseVersionTag` strings or null; `baseVersion` an integer or null). The caller then
    /// decodes it with `JSONDecoder`.
    init?(directJSON body: Data) {
        let changes = DirectJSONReader.document(body) { reader -> [BatchChangeDTO]? in
            var changes: [BatchChangeDTO]?
            let read = reader.object { name, reader in
                name == "changes" && reader.once(&changes) { Self.changes(&$0) }
            }
            return read ? changes : nil
        }
        guard let changes else { return nil }
        self.init(changes: changes)
    }

    private static func changes(_ reader: inout DirectJSONReader) -> [BatchChangeDTO]? {
        guard reader.take(UInt8(ascii: "[")) else { return nil }
        var changes: [BatchChangeDTO] = []
        if reader.take(UInt8(ascii: "]")) { return changes }
        repeat {
            guard let change = change(&reader) else { return nil }
            changes.append(change)
        } while reader.take(UInt8(ascii: ","))
        return reader.take(UInt8(ascii: "]")) ? changes : nil
    }

    private static func change(_ reader: inout DirectJSONReader) -> BatchChangeDTO? {
        var op: String?
        var id: String?
        var key: String?
        var payload: String??
        var baseVersion: Int??
        var tag: String??
        // Each key at most once, and its value of the type it takes.
        let read = reader.object { name, reader in
            switch name {
            case "op": reader.once(&op) { $0.string() }
            case "id": reader.once(&id) { $0.string() }
            case "idempotencyKey": reader.once(&key) { $0.string() }
            case "payload": reader.once(&payload) { $0.nullOr { $0.string() } }
            case "baseVersionTag": reader.once(&tag) { $0.nullOr { $0.string() } }
            case "baseVersion": reader.once(&baseVersion) { $0.nullOr { $0.integer() } }
            default: false
            }
        }
        guard read, let op, let id, let key else { return nil }
        return BatchChangeDTO(
            op: op, id: id, idempotencyKey: key, payload: payload ?? nil, baseVersion: baseVersion ?? nil,
            baseVersionTag: tag ?? nil)
    }
}
