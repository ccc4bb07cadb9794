import Foundation
import Testing

@testable import QuireServer

/// The PUT body's fast reader (issue 13 part 6): every body it reads, `JSONDecoder` reads to the
/// same fields; what clients send it reads; anything unusual it leaves to `JSONDecoder`.
struct PutBodyScannerTests {
    /// The fields as `JSONDecoder` reads them, as `RequestValidation.putBody` did before.
    private struct Decoded: Decodable, Equatable {
        var payload: String?
        var baseVersion: Int?
        var baseVersionTag: String?
    }

    private static func decoded(_ body: String) -> PutBodyScanner.Fields? {
        guard let value = try? JSONDecoder().decode(Decoded.self, from: Data(body.utf8)) else { return nil }
        return PutBodyScanner.Fields(
            payload: value.payload, baseVersion: value.baseVersion, baseVersionTag: value.baseVersionTag)
    }

    /// What the clients and the benchmarks send, and the near misses the old path refused.
    static let readBodies = [
        #"{"payload":"AQID+/=","baseVersion":null}"#,
        #"{"baseVersion":3,"baseVersionTag":"17","payload":"p"}"#,
        #"{"baseVersion":null,"payload":"p"}"#,
        #" { "payload" : "p" , "baseVersion" : 12 } "#,
        "{\n\t\"payload\":\"p\",\r\n\"baseVersion\":1}\n",
        #"{"payload":"p"}"#,
        #"{}"#,
        #"{"payload":null}"#,
        #"{"payload":""}"#,
        #"{"payload":"p","baseVersion":0}"#,
        #"{"payload":"p","baseVersion":999999999999999999}"#,
        #"{"payload":"p","baseVersionTag":null}"#,
        #"{"payload":"p","baseVersionTag":"abc"}"#,
    ]

    /// Bodies it leaves to `JSONDecoder`, whatever that makes of them.
    static let leftBodies = [
        #"{"payload":"a\"b"}"#,
        #"{"payload":"a\/b"}"#,
        #"{"payload":"é"}"#,
        #"{"payload":"p","baseVersion":-1}"#,
        #"{"payload":"p","baseVersion":01}"#,
        #"{"payload":"p","baseVersion":1.0}"#,
        #"{"payload":"p","baseVersion":1e2}"#,
        #"{"payload":"p","baseVersion":"1"}"#,
        #"{"payload":"p","baseVersion":1234567890123456789}"#,
        // Past Int.max: the scanner trapped on the overflow and took the server down with it
        // (schemathesis, `"baseVersion": 9223372036854775808`).
        #"{"payload":"0","baseVersion":9223372036854775808,"baseVersionTag":"1"}"#,
        #"{"payload":"p","baseVersion":99999999999999999999999999999999999999999}"#,
        #"{"payload":"p","payload":"q"}"#,
        #"{"payload":"p","extra":1}"#,
        #"{"payload":1}"#,
        #"{"payload":"p",}"#,
        #"{"payload":"p"} x"#,
        #"{"payload":"p""#,
        #"["payload"]"#,
        #""p""#,
        "",
        "nul",
        #"{"payload":nul}"#,
        #"{"baseVersion":nullx,"payload":"p"}"#,
    ]

    @Test(arguments: readBodies)
    func readsWhatJSONDecoderReadsTheSame(_ body: String) throws {
        let fields = try #require(PutBodyScanner.scan(Data(body.utf8)))
        #expect(fields == Self.decoded(body))
    }

    @Test(arguments: leftBodies)
    func leavesTheRestToJSONDecoder(_ body: String) {
        #expect(PutBodyScanner.scan(Data(body.utf8)) == nil)
    }

    @Test func everyPrefixOfAGoodBodyIsReadAlikeOrLeft() {
        // Cut short anywhere, a body is either still one the decoder reads alike, or left to it.
        let body = #"{"baseVersion":3,"baseVersionTag":"17","payload":"AQID"}"#
        for end in 0...body.utf8.count {
            let prefix = String(decoding: Array(body.utf8.prefix(end)), as: UTF8.self)
            if let fields = PutBodyScanner.scan(Data(prefix.utf8)) {
                #expect(fields == Self.decoded(prefix), "\(prefix)")
            }
        }
    }
}
