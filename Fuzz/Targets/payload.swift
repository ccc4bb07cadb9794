import Foundation
import QuireCrypto
import QuireDomain
import QuireTrips

@testable import QuireClient

/// Fuzz target `payload`: what a device opens that the server (or a companion) sent. The first
/// byte chooses the form, the rest is the input:
/// - 0: a note's `payload` field as text: `SealedPayloadCodec.open` throws `PayloadError` or opens;
/// - 1: a plaintext sealed here with the right key and bound data, so opening reaches the JSON a
///   device decodes (what a device holding the key could have sealed): a note that opens seals
///   and opens back to itself;
/// - 2: a trip field value as text: `TripSealer.open` throws or opens;
/// - 3: an invite link as pasted: `InviteLink` parses or says nil, and what parses prints a link
///   that parses to the same id, secret and server.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let form = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    let codec = PayloadFuzz.codec
    switch form % 4 {
    case 0:
        _ = try? codec.open(FuzzInput.text(rest), noteID: PayloadFuzz.note)
    case 1:
        let associated = SealedPayloadCodec.associatedData(account: PayloadFuzz.account, noteID: PayloadFuzz.note)
        guard let sealed = try? AESGCM.seal(Data(rest), key: PayloadFuzz.key, associatedData: associated) else {
            FuzzInput.require(false, "sealing failed")
            return 0
        }
        if let content = try? codec.open(sealed.base64EncodedString(), noteID: PayloadFuzz.note) {
            let again = try? codec.open(codec.seal(content, noteID: PayloadFuzz.note), noteID: PayloadFuzz.note)
            FuzzInput.require(again == content, "a note that opened does not seal and open back to itself")
        }
    case 2:
        let sealer = TripSealer(trip: PayloadFuzz.trip, key: PayloadFuzz.key)
        _ = try? sealer.open(FuzzInput.text(rest), item: PayloadFuzz.item, field: "title")
    default:
        let text = FuzzInput.text(rest)
        if let link = InviteLink(text) {
            let again = InviteLink(link.text)
            FuzzInput.require(
                again?.id == link.id && again?.secret == link.secret
                    && again.map { PayloadFuzz.trimmed($0.server) == PayloadFuzz.trimmed(link.server) } == true,
                "the link \(text.debugDescription) prints \(link.text.debugDescription), which reads differently")
        }
    }
    return 0
}

enum PayloadFuzz {
    static let key = SymmetricKey256(data: Data(repeating: 3, count: 32))!
    static let account = AccountID("fuzz-account")
    static let note = NoteID(UUID(uuidString: "5c7a2e1f-0d3b-4a6c-8e9f-1a2b3c4d5e6f")!)
    static let trip = TripID("0b7e2f4c-8d3a-4c1e-9f6b-2a5d7c8e9f10")!
    static let item = ItemID("7f3e9a1b-2c4d-4e5f-8a6b-9c0d1e2f3a4b")
    static let codec = SealedPayloadCodec(notesKey: key, account: account)

    /// A server URL as text without its trailing slashes (the link prints it so).
    static func trimmed(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
