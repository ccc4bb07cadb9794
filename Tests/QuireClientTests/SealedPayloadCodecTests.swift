import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import Testing

/// Sealing and opening note payloads with the notes key, bound to the account and the note.
struct SealedPayloadCodecTests {
    let key = SymmetricKey256.random()
    let account = AccountID("acct-1")
    let content = NoteContent(title: "Diary", body: "the secret is 42", conflictOf: NoteID())

    @Test func sealedPayloadOpensToTheSameContent() throws {
        let codec = SealedPayloadCodec(notesKey: key, account: account)
        let id = NoteID()

        let payload = try codec.seal(content, noteID: id)

        #expect(try codec.open(payload, noteID: id) == content)
    }

    @Test func payloadIsCiphertextNotPlaintext() throws {
        let codec = SealedPayloadCodec(notesKey: key, account: account)
        let id = NoteID()

        let payload = try codec.seal(content, noteID: id)
        let bytes = try #require(Data(base64Encoded: payload))

        #expect(!String(decoding: bytes, as: UTF8.self).contains("secret"))
        #expect(try codec.seal(content, noteID: id) != payload, "each seal uses a fresh nonce")
    }

    @Test func payloadMovedToAnotherNoteFailsToOpen() throws {
        let codec = SealedPayloadCodec(notesKey: key, account: account)
        let payload = try codec.seal(content, noteID: NoteID())
        let other = NoteID()

        let error = try #require(throws: PayloadError.self) { try codec.open(payload, noteID: other) }
        #expect(error.noteID == other)
    }

    @Test func payloadOfAnotherAccountFailsToOpen() throws {
        let id = NoteID()
        let payload = try SealedPayloadCodec(notesKey: key, account: account).seal(content, noteID: id)
        let otherAccount = SealedPayloadCodec(notesKey: key, account: AccountID("acct-2"))

        #expect(throws: PayloadError.self) { try otherAccount.open(payload, noteID: id) }
    }

    @Test func payloadFailsToOpenWithAnotherKey() throws {
        let id = NoteID()
        let payload = try SealedPayloadCodec(notesKey: key, account: account).seal(content, noteID: id)
        let otherKey = SealedPayloadCodec(notesKey: .random(), account: account)

        #expect(throws: PayloadError.self) { try otherKey.open(payload, noteID: id) }
    }

    @Test(arguments: [0, 5, 12, 20, -1])
    func payloadWithAChangedByteFailsToOpen(position: Int) throws {
        let codec = SealedPayloadCodec(notesKey: key, account: account)
        let id = NoteID()
        var bytes = try #require(Data(base64Encoded: try codec.seal(content, noteID: id)))
        let index = position >= 0 ? position : bytes.count - 1
        bytes[index] ^= 0x01

        #expect(throws: PayloadError.self) { try codec.open(bytes.base64EncodedString(), noteID: id) }
    }

    @Test func truncatedPayloadFailsToOpen() throws {
        let codec = SealedPayloadCodec(notesKey: key, account: account)
        let id = NoteID()
        let bytes = try #require(Data(base64Encoded: try codec.seal(content, noteID: id)))

        #expect(throws: PayloadError.self) {
            try codec.open(bytes.prefix(20).base64EncodedString(), noteID: id)
        }
        #expect(throws: PayloadError.self) {
            try codec.open(bytes.dropLast().base64EncodedString(), noteID: id)
        }
    }

    @Test(arguments: ["not base64 at all!", "", "@@@@", "YWJj"])
    func payloadThatIsNotSealedDataFailsToOpen(payload: String) {
        let codec = SealedPayloadCodec(notesKey: key, account: account)

        #expect(throws: PayloadError.self) { try codec.open(payload, noteID: NoteID()) }
    }

    @Test func sealedDataThatIsNotANoteFailsWithoutQuotingIt() throws {
        let id = NoteID()
        let sealed = try AESGCM.seal(
            Data("{\"title\": \"leaky secret\"}".utf8), key: key,
            associatedData: Data("quire-note-v1|\(account.rawValue)|\(id.description)".utf8))
        let codec = SealedPayloadCodec(notesKey: key, account: account)

        let error = try #require(throws: PayloadError.self) {
            try codec.open(sealed.base64EncodedString(), noteID: id)
        }
        #expect(!error.description.contains("leaky"))
        #expect(!error.reason.contains("secret"))
    }

    @Test func associatedDataIsTheDocumentedString() throws {
        // Another client (the Apple app) must build the same bytes: pin the format.
        let id = try #require(NoteID("6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        let sealed = try AESGCM.seal(
            Data(#"{"body":"b","title":"t"}"#.utf8), key: key,
            associatedData: Data("quire-note-v1|acct-1|6f9619ff-8b86-d011-b42d-00c04fc964ff".utf8))
        let codec = SealedPayloadCodec(notesKey: key, account: account)

        #expect(try codec.open(sealed.base64EncodedString(), noteID: id) == NoteContent(title: "t", body: "b"))
    }
}
