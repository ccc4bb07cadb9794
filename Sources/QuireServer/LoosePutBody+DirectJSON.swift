import Foundation

extension RequestValidation.LoosePutBody {
    /// A PUT body read by ``DirectJSONReader``: an object with `payload` and `baseVersionTag`
    /// (strings or null) and `baseVersion` (an integer or null), each at most once; nil wherever
    /// the reader gives up or another key comes (`JSONDecoder` ignores it: the caller decodes
    /// such a body with it).
    init?(directJSON body: Data) {
        guard
            let read = DirectJSONReader.document(
                body,
                { reader -> Self? in
                    var payload: String??
                    var baseVersion: Int??
                    var tag: String??
                    let read = reader.object { name, reader in
                        switch name {
                        case "payload": reader.once(&payload) { $0.nullOr { $0.string() } }
                        case "baseVersion": reader.once(&baseVersion) { $0.nullOr { $0.integer() } }
                        case "baseVersionTag": reader.once(&tag) { $0.nullOr { $0.string() } }
                        default: false
                        }
                    }
                    return read
                        ? Self(payload: payload ?? nil, baseVersion: baseVersion ?? nil, baseVersionTag: tag ?? nil)
                        : nil
                })
        else { return nil }
        self = read
    }
}
