import Foundation
import QuireCrypto
import Testing

@testable import QuireClient

/// `InviteLink(text)` reads what `text` prints and nothing else: what a person pastes into
/// `quire trip join` either names a server to ask and a link on it, or is refused there.
struct InviteLinkParsingTests {
    static let secret = Data(repeating: 4, count: 32).base64URLEncodedString()

    @Test func aPrintedLinkReadsBackTheSame() throws {
        let link = InviteLink(server: try #require(URL(string: "https://quire.example/")), id: "0a1b2c3d")
        let again = try #require(InviteLink(link.text))
        #expect(again.id == link.id)
        #expect(again.secret == link.secret)
        #expect(again.text == link.text)
    }

    /// Found by the payload fuzz target (scripts/fuzz.sh): "////join/#…" was taken as a link to
    /// the server "///", and its own text did not read back.
    @Test(arguments: [
        "////join/#\(secret)", "https:///join/0a1b#\(secret)", "/join/0a1b#\(secret)",
        "ftp://quire.example/join/0a1b#\(secret)",
        "quire.example/join/0a1b#\(secret)", "https://quire.example/join/#\(secret)",
    ])
    func aLinkWithoutAServerOrAnIDIsRefused(text: String) {
        #expect(InviteLink(text) == nil)
    }
}
