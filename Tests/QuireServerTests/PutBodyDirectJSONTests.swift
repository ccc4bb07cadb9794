import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `PUT /v1/notes/{id}` reads a plain body directly (`RequestValidation.LoosePutBody(directJSON:)`),
/// giving up to `JSONDecoder` at anything unusual: whatever it reads, `JSONDecoder` reads the same.
struct PutBodyDirectJSONTests {
    typealias Body = RequestValidation.LoosePutBody

    static func decoded(_ body: Data) -> Body? {
        try? JSONDecoder().decode(Body.self, from: body)
    }

    static let plain: [String] = [
        #"{"baseVersion":null,"payload":"AcOKm-_x0AbC_-9"}"#,
        #"{"baseVersion":7,"baseVersionTag":"123","payload":"p"}"#,
        #" { "payload" : "p" , "baseVersion" : 12 } "#,
        #"{}"#,
        #"{"payload":null}"#,
    ]

    static let unusual: [String] = [
        #"{"payload":"a\/b"}"#, #"{"payload":"é"}"#, #"{"payload":"p","extra":[1]}"#,
        #"{"payload":"p","payload":"q"}"#, #"{"payload":"p","baseVersion":1.0}"#,
        #"{"payload":"p","baseVersion":9223372036854775808}"#, #"{"payload":"p","baseVersion":"1"}"#,
        #"{"payload":1}"#, #"{"payload":"p",}"#, #"{"payload":"p"} {}"#, "[]", "", "null", #""p""#,
    ]

    @Test func plainBodiesAreReadDirectlyAsJSONDecoderReadsThem() {
        for text in Self.plain {
            let body = Data(text.utf8)
            #expect(Body(directJSON: body) != nil, "\(text)")
            #expect(Body(directJSON: body) == Self.decoded(body), "\(text)")
        }
    }

    @Test(arguments: unusual)
    func whatItReadsJSONDecoderReadsTheSame(_ text: String) {
        let body = Data(text.utf8)
        if let direct = Body(directJSON: body) { #expect(direct == Self.decoded(body), "\(text)") }
    }

    @Test func aDamagedBodyIsReadAsJSONDecoderReadsItOrLeftToIt() {
        var generator = SystemRandomNumberGenerator()
        let damage: [UInt8] = Array(#"{}[],:" \-.0123456789eEnul"#.utf8) + [0x09, 0x0A, 0xC3, 0xA9, 0x00]
        var readDirectly = 0
        for _ in 0..<3_000 {
            var body = Array(
                WireJSON.encode(
                    PutNoteRequestDTO(
                        payload: String(repeating: "AbC-_9", count: Int.random(in: 1...50, using: &generator)),
                        baseVersion: Bool.random(using: &generator)
                            ? Int.random(in: 1...99_999, using: &generator) : nil,
                        baseVersionTag: Bool.random(using: &generator) ? "42" : nil)))
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: body[at] = damage.randomElement(using: &generator)!
                case 1: body.remove(at: at)
                default: body.insert(damage.randomElement(using: &generator)!, at: at)
                }
                if body.isEmpty { break }
            }
            let data = Data(body)
            if let direct = Body(directJSON: data) {
                readDirectly += 1
                #expect(direct == Self.decoded(data), "\(String(decoding: data, as: UTF8.self).prefix(300))")
            }
        }
        #expect(readDirectly > 0)
    }
}
