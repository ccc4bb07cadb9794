import Foundation
import Testing

@testable import QuireCrypto

/// The keyed sealer of the server's cursors gives exactly what the one-shot HMAC and AES-GCM
/// calls give, for any input and from any number of threads at once, and it opens.
struct SyntheticNonceSealerTests {
    private static let key = SymmetricKey256(data: Data((0..<32).map { UInt8($0) }))!
    private static let nonceKey = Data("nonce key of any length".utf8)

    /// What `SyntheticNonceSealer` promises, from the one-shot calls.
    private static func expected(_ plaintext: Data, associatedData: Data, prefix: UInt8) throws -> [UInt8] {
        let nonce = HMAC.sha256(key: nonceKey, data: associatedData + Data([0]) + plaintext).prefix(12)
        return [prefix]
            + [UInt8](try AESGCM.seal(plaintext, key: key, nonce: Data(nonce), associatedData: associatedData))
    }

    static let inputs: [(plaintext: String, associatedData: String)] = [
        ("", ""), ("a", ""), ("", "quire-cursor-v1|notes|1"), ("\u{1}body of a cursor", "quire-cursor-v1|notes|42"),
        (String(repeating: "long plaintext ", count: 300), "quire-cursor-v1|trip|7|5f0c"),
    ]

    /// Each input twice, the second round backwards: a seal starts over the working contexts the
    /// one before it used, so nothing of one seal may reach the next.
    @Test func sealsAsTheOneShotCallsDo() throws {
        let sealer = SyntheticNonceSealer(key: Self.key, nonceKey: Self.nonceKey)
        for (plaintext, associatedData) in Self.inputs + Self.inputs.reversed() {
            let (body, data) = (Data(plaintext.utf8), Data(associatedData.utf8))
            let sealed = sealer.seal(body, associatedData: data, prefix: 1)
            #expect(sealed == (try Self.expected(body, associatedData: data, prefix: 1)))
            #expect(try AESGCM.open(Data(sealed.dropFirst()), key: Self.key, associatedData: data) == body)
        }
    }

    @Test func sealsAlikeFromManyThreadsAtOnce() async throws {
        let sealer = SyntheticNonceSealer(key: Self.key, nonceKey: Self.nonceKey)
        let want = try (0..<64).map {
            try Self.expected(Data("cursor \($0)".utf8), associatedData: Data("ad".utf8), prefix: 1)
        }
        let got = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<8 {
                group.addTask {
                    var last: (Int, [UInt8]) = (0, [])
                    for index in 0..<64 where index % 8 == round {
                        for _ in 0..<50 {
                            last = (
                                index,
                                sealer.seal(Data("cursor \(index)".utf8), associatedData: Data("ad".utf8), prefix: 1)
                            )
                            if last.1 != want[index] { return (index, last.1) }
                        }
                    }
                    return (-1, last.1)
                }
            }
            var mismatches: [Int] = []
            for await (index, _) in group where index >= 0 { mismatches.append(index) }
            return mismatches
        }
        #expect(got.isEmpty, "seals that differed from the one-shot calls: \(got)")
    }
}
