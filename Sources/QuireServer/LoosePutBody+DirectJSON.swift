import Foundation

extension RequestValidation.LoosePutBody {
    /// A PUT body read by ``DirectJSONReader``: an object with `payload` and `baseVersionTag`
    /// (strings or null) and `baseVersion` (an integer or null), each at most once; nil wherever
    /// the reader gives up or another key comes (`JSONDecoder` ignores it: the caller decodes
    /// such a body with it).
    init?(directJSON body: Data) {
        guard
            let read = body.withUnsafeBytes({ bytes -> Self? in
                var reader = DirectJSONReader(bytes)
                guard reader.take(UInt8(ascii: "{")) else { return nil }
                var payload: String??
                var baseVersion: Int??
                var tag: String??
                if !reader.take(UInt8(ascii: "}")) {
                    repeat {
                        guard let name = reader.string(), reader.take(UInt8(ascii: ":")) else { return nil }
                        let read =
                            switch name {
                            case "payload": reader.once(&payload) { $0.nullOr { $0.string() } }
                            case "baseVersion": reader.once(&baseVersion) { $0.nullOr { $0.integer() } }
                            case "baseVersionTag": reader.once(&tag) { $0.nullOr { $0.string() } }
                            default: false
                            }
                        guard read else { return nil }
                    } while reader.take(UInt8(ascii: ","))
                    guard reader.take(UInt8(ascii: "}")) else { return nil }
                }
                guard reader.atEnd() else { return nil }
                return Self(payload: payload ?? nil, baseVersion: baseVersion ?? nil, baseVersionTag: tag ?? nil)
            })
        else { return nil }
        self = read
    }
}
