import Foundation
import QuireCrypto
import Testing

@testable import QuireServer

/// A request's fingerprint is the SHA-256 of its method, path, canonical query and body, one
/// after the other: the value idempotency records stored before it was hashed in pieces, so a
/// resend across an upgrade still replays its answer.
struct RequestFingerprintTests {
    @Test(arguments: [0, 1, 55, 56, 64, 3_000, 70_000])
    func isTheDigestOfTheWholeRequestText(bodyBytes: Int) {
        let body = Data((0..<bodyBytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let request = HTTPRequest(
            method: "put", path: "/v1/notes/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a",
            query: ["b": "2", "a": "1"], body: body)
        var whole = Data("PUT\n/v1/notes/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a\na=1&b=2\n".utf8)
        whole.append(body)
        #expect(RequestValidation.fingerprint(request) == SHA256Digest.hex(whole))
    }

    @Test func aKnownRequestKeepsItsKnownFingerprint() {
        // Computed with `printf 'PUT\n/v1/notes/x\n\n{}' | sha256sum`.
        let request = HTTPRequest(method: "PUT", path: "/v1/notes/x", body: Data("{}".utf8))
        #expect(
            RequestValidation.fingerprint(request)
                == "da44a9c40e39f547b375bac3d2fe725e3f4c4a416239368b216190934934f965")
    }
}
