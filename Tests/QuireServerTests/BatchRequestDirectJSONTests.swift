import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The batch route reads a batch's JSON directly (`BatchRequestDTO(directJSON:)`), giving up to
/// `JSONDecoder` at anything unusual: whatever it reads, `JSONDecoder` must read the same.
struct BatchRequestDirectJSONTests {
    static func decoded(_ body: Data) -> BatchRequestDTO? {
        try? WireJSON.decoder().decode(BatchRequestDTO.self, from: body)
    }

    static func randomBatch(_ generator: inout some RandomNumberGenerator) -> BatchRequestDTO {
        BatchRequestDTO(
            changes: (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                BatchChangeDTO(
                    op: Bool.random(using: &generator) ? "put" : "delete", id: UUID().uuidString,
                    idempotencyKey: UUID().uuidString,
                    payload: Bool.random(using: &generator)
                        ? String(repeating: "AbC-_9", count: Int.random(in: 0...600, using: &generator)) : nil,
                    baseVersion: Bool.random(using: &generator) ? Int.random(in: -3...Int.max, using: &generator) : nil,
                    baseVersionTag: Bool.random(using: &generator)
                        ? "\(Int.random(in: 0...999_999, using: &generator))" : nil)
            })
    }

    @Test func aBatchAsDevicesSendItIsReadDirectlyAndAsJSONDecoderReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let batch = Self.randomBatch(&generator)
            let body = WireJSON.encode(batch)
            #expect(BatchRequestDTO(directJSON: body) == batch, "\(String(decoding: body, as: UTF8.self).prefix(400))")
        }
    }

    static let unusual: [String] = [
        #" { "changes" : [ { "op" : "put" , "id" : "a" , "idempotencyKey" : "k" , "payload" : null } ] } "#,
        "{\"changes\":[{\"op\":\"put\",\"id\":\"a\",\"idempotencyKey\":\"k\",\"baseVersion\":-0}]}\n",
        #"{"changes":[{"idempotencyKey":"k","id":"a","op":"put","baseVersion":12,"baseVersionTag":null}]}"#,
        #"{"changes":[]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","payload":"a\"b"}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","payload":"\u0041"}]}"#,
        #"{"changes":[{"op":"put","id":"é","idempotencyKey":"k"}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":1.0}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":1e2}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":01}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":9223372036854775808}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":-9223372036854775808}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","baseVersion":"3"}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k","extra":1}]}"#,
        #"{"changes":[{"op":"put","op":"delete","id":"a","idempotencyKey":"k"}]}"#,
        #"{"changes":[{"op":"put","id":"a"}]}"#,
        #"{"changes":[{"op":null,"id":"a","idempotencyKey":"k"}]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k"},]}"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k"}]} x"#,
        #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k"}],"changes":[]}"#,
        #"{"other":1,"changes":[]}"#,
        #"{"changes":{}}"#,
        "{\"changes\":[{\"op\":\"put\",\"id\":\"a\tb\",\"idempotencyKey\":\"k\"}]}",
        #"[]"#, "", "{", #"{"changes":[{"op":"put","id":"a","idempotencyKey":"k""#,
    ]

    @Test(arguments: unusual)
    func whatItReadsJSONDecoderReadsTheSame(_ text: String) {
        let body = Data(text.utf8)
        if let direct = BatchRequestDTO(directJSON: body) {
            #expect(direct == Self.decoded(body), "\(text)")
        }
    }

    @Test func spacesKeysInAnyOrderAndNullsAreReadDirectly() {
        for text in Self.unusual.prefix(4) {
            #expect(BatchRequestDTO(directJSON: Data(text.utf8)) != nil, "\(text)")
        }
    }

    @Test func aDamagedBatchIsReadAsJSONDecoderReadsItOrLeftToIt() {
        var generator = SystemRandomNumberGenerator()
        let damage: [UInt8] = Array(#"{}[],:" \-.0123456789eEnul"#.utf8) + [0x09, 0x0A, 0xC3, 0xA9, 0x00]
        var readDirectly = 0
        for _ in 0..<3_000 {
            var body = Array(WireJSON.encode(Self.randomBatch(&generator)))
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !body.isEmpty {
                let at = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: body[at] = damage.randomElement(using: &generator)!
                case 1: body.remove(at: at)
                default: body.insert(damage.randomElement(using: &generator)!, at: at)
                }
            }
            let data = Data(body)
            if let direct = BatchRequestDTO(directJSON: data) {
                readDirectly += 1
                #expect(direct == Self.decoded(data), "\(String(decoding: data, as: UTF8.self).prefix(400))")
            }
        }
        // Damage inside a payload or an id leaves valid JSON that is still read directly.
        #expect(readDirectly > 0)
    }
}
