import Foundation
import QuireClient
import QuireCrypto
import QuireDomain

/// The account's notes key for the benchmarks, and the client's own sealed codec over it, so
/// payload sizes and the crypto cost are exactly what a device pays.
struct BenchCodec: PayloadCodec {
    let key: SymmetricKey256
    private let codec: QuireClient.SealedPayloadCodec

    init(key: SymmetricKey256) {
        self.key = key
        self.codec = QuireClient.SealedPayloadCodec(notesKey: key, account: AccountID("bench"))
    }

    /// A codec from a 64-character hex key (how the parent hands its key to a child process).
    init?(hexKey: String) {
        var bytes: [UInt8] = []
        var characters = Array(hexKey.utf8)
        guard characters.count == 64 else { return nil }
        while !characters.isEmpty {
            guard let byte = UInt8(String(decoding: characters.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(byte)
            characters.removeFirst(2)
        }
        guard let key = SymmetricKey256(data: Data(bytes)) else { return nil }
        self.init(key: key)
    }

    var hexKey: String { HexText.string(key.data) }

    func seal(_ content: NoteContent, noteID: NoteID) throws -> String {
        try codec.seal(content, noteID: noteID)
    }

    func open(_ payload: String, noteID: NoteID) throws -> NoteContent {
        try codec.open(payload, noteID: noteID)
    }
}
