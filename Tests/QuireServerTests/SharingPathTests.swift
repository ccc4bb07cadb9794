import QuireWire
import Testing

@testable import QuireServer

/// Sharing paths parse as before the slash count's shortcut (issue 13 part 6), and a path with
/// fewer parts than any of them (a note's) is none.
struct SharingPathTests {
    static let paths: [(String, SharingPath?)] = [
        (WireRoutes.sharingKey, .ownKey),
        (WireRoutes.invites, .invites),
        ("/v1/accounts/bob/sharing-key", .publicKey(username: "bob")),
        ("/v1/invites/i1/accept", .answer(invite: "i1", accepting: true)),
        ("/v1/trips/t1/members/bob", .member(trip: "t1", username: "bob")),
        ("/v1/links/l1/join", .useLink(link: "l1", joining: true)),
        ("/v1/notes/6f1c0a52-3f7e-4b8e-9d1a-2b3c4d5e6f70", nil),
        ("/v1/trips/t1", nil),
        ("/v1/a/b", nil),
        ("/v1//", nil),
        ("", nil),
        ("////", nil),
        ("/v2/trips/t1/links", nil),
    ]

    @Test func pathsParseAsTheyDid() {
        for (path, expected) in Self.paths {
            #expect(SharingPath(path) == expected, "\(path)")
        }
    }
}
