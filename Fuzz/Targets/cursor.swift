import Foundation

@testable import QuireServer

/// Fuzz target `cursor`: the server's feed cursors from any text, as `?since=`, `?known=` and
/// `?cursor=` bring them. Never a crash; a cursor that parses writes back to text that parses to
/// the same cursor, sealed too; a trip cursor is refused for any other trip and under any other
/// key, a sealed cursor for any other account or feed; the query validators agree with the parsers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCursor(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = FuzzInput.text(FuzzInput.bytes(data, size))
    if let cursor = ChangeCursor(plainText: text) {
        FuzzInput.require(ChangeCursor(plainText: cursor.plainText) == cursor, "\(text) reads back as another cursor")
    }
    let trip = "0b7e2f4c-8d3a-4c1e-9f6b-2a5d7c8e9f10"
    let key = Data(repeating: 7, count: 32)
    if let cursor = TripChangeCursor(text: text, trip: trip, key: key) {
        let again = TripChangeCursor(text: cursor.text(trip: trip, key: key), trip: trip, key: key)
        FuzzInput.require(again == cursor, "trip cursor \(text) reads back as another")
        FuzzInput.require(
            TripChangeCursor(text: text, trip: "1" + trip.dropFirst(), key: key) == nil,
            "trip cursor \(text) was taken for another trip")
        FuzzInput.require(
            TripChangeCursor(text: text, trip: trip, key: Data(repeating: 8, count: 32)) == nil,
            "trip cursor \(text) was taken under another key")
    }
    let seal = CursorSeal(serverSecret: key)
    let account = AccountID(1)
    if let cursor = ChangeCursor(text: text, seal: seal, scope: .notes(account)) {
        let sealed = cursor.text(seal: seal, scope: .notes(account))
        FuzzInput.require(
            ChangeCursor(text: sealed, seal: seal, scope: .notes(account)) == cursor,
            "sealed cursor of \(text) reads back as another")
        FuzzInput.require(
            ChangeCursor(text: sealed, seal: seal, scope: .notes(AccountID(2))) == nil
                && ChangeCursor(text: sealed, seal: seal, scope: .tripsFeed(account)) == nil,
            "sealed cursor of \(text) was taken for another account or feed")
    }
    for name in ["since", "known"] {
        let request = HTTPRequest(method: "GET", path: "/v1/notes/changes", query: [name: text])
        let parsed = try? RequestValidation.changesQuery(request, seal: seal, scope: .notes(account))
        if name == "since" {
            FuzzInput.require(
                (parsed != nil) == (ChangeCursor(text: text, seal: seal, scope: .notes(account)) != nil),
                "since= and the parser disagree")
        }
        _ = try? RequestValidation.tripsFeedQuery(request, seal: seal, account: account)
        let tripRequest = HTTPRequest(method: "GET", path: "/", query: [name == "since" ? "cursor" : name: text])
        _ = try? RequestValidation.tripChangesQuery(tripRequest, trip: trip, account: account, seal: seal)
    }
    _ = try? RequestValidation.versionTag(text, name: "baseVersionTag")
    _ = RequestValidation.plainInteger(text)
    return 0
}
