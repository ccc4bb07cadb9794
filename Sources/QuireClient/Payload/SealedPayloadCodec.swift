import Foundation
import QuireCrypto
import QuireDomain

/// The end-to-end encrypted payload (DESIGN.md "encryption"): a note's content sealed with the
/// account's notes key, bound to the account and the note id.
///
/// `seal` writes the content's JSON (sorted keys), seals it with AES-256-GCM under the notes key with
/// associated data `quire-note-v1|<account>|<note id, lowercase>`, and returns standard base64 of the
/// combined form (nonce ‖ ciphertext ‖ tag), as the wire's `payload` field expects. Because the
/// associated data names the note and the account, the server cannot move a payload to another note
/// or another account: opening it there fails authentication.
///
/// `open` never traps and never puts content in an error: every failure is a ``PayloadError`` whose
/// reason says only what kind of failure it was.
public struct SealedPayloadCodec: PayloadCodec {
    private let notesKey: SymmetricKey256
    private let account: AccountID

    /// - Parameters:
    ///   - notesKey: the account's notes key, as unwrapped at sign-in.
    ///   - account: the server's account id (``AccountSession/account``); every device of the
    ///     account must pass the same value or they cannot open each other's payloads.
    public init(notesKey: SymmetricKey256, account: AccountID) {
        self.notesKey = notesKey
        self.account = account
    }

    /// The associated data that binds a payload to its account and note.
    static func associatedData(account: AccountID, noteID: NoteID) -> Data {
        Data("quire-note-v1|\(account.rawValue)|\(noteID.description)".utf8)
    }

    /// Seals `content` for the note `noteID`. Two seals of the same content differ (fresh nonce).
    /// - Throws: ``PayloadError`` if the content cannot be encoded or the crypto library fails.
    public func seal(_ content: NoteContent, noteID: NoteID) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plaintext: Data
        do {
            plaintext = try encoder.encode(content)
        } catch {
            throw PayloadError(noteID: noteID, reason: "the note could not be encoded")
        }
        do {
            let sealed = try AESGCM.seal(
                plaintext, key: notesKey,
                associatedData: Self.associatedData(account: account, noteID: noteID))
            return sealed.base64EncodedString()
        } catch {
            // CryptoError's text holds no key or plaintext.
            throw PayloadError(noteID: noteID, reason: "sealing failed: \(error)")
        }
    }

    /// Opens a payload sealed by `seal` for the same note, account and notes key.
    /// - Throws: ``PayloadError`` when the payload is not base64, is too short, does not
    ///   authenticate (wrong key, another note or account, a changed byte), or does not hold a note.
    ///   The reason never includes any of the payload's content.
    public func open(_ payload: String, noteID: NoteID) throws -> NoteContent {
        guard let combined = Data(base64Encoded: payload) else {
            throw PayloadError(noteID: noteID, reason: "the payload is not base64")
        }
        let plaintext: Data
        do {
            plaintext = try AESGCM.open(
                combined, key: notesKey,
                associatedData: Self.associatedData(account: account, noteID: noteID))
        } catch let error as CryptoError where error == .inputTooShort {
            throw PayloadError(noteID: noteID, reason: "the payload is too short to be sealed data")
        } catch let error as CryptoError where error == .authenticationFailed {
            throw PayloadError(
                noteID: noteID,
                reason: "the payload does not authenticate (another key, note or account, or tampered)")
        } catch {
            throw PayloadError(noteID: noteID, reason: "the payload could not be decrypted")
        }
        do {
            return try JSONDecoder().decode(NoteContent.self, from: plaintext)
        } catch {
            // The decoder's message may quote the plaintext: say only that it was not a note.
            throw PayloadError(noteID: noteID, reason: "the decrypted payload is not a note")
        }
    }
}
