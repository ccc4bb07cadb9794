import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Promise 8: bad input gets a clear 4xx JSON error, and nothing stored changes.
struct BadInputTests {
    /// One bad request. `token` in a header value is replaced by the account's real token.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "PUT"
        var path = WireRoutes.note(BadInputTests.existingID)
        var query: [String: String] = [:]
        var headers = ["Authorization": "Bearer token", "Idempotency-Key": "k-bad"]
        var body = Data(#"{"payload":"new","baseVersion":1}"#.utf8)
        var status: Int
        var code: String

        var testDescription: String { name }
    }

    static let existingID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    static let auth = ["Authorization": "Bearer token"]

    static let cases: [Case] = [
        Case(
            name: "malformed JSON", body: Data(#"{"payload": "#.utf8), status: 400,
            code: "invalid_json"),
        Case(name: "empty body", body: Data(), status: 400, code: "invalid_json"),
        Case(
            name: "invalid UTF-8", body: Data([0x7B, 0xFF, 0xFE, 0x7D]), status: 400,
            code: "invalid_json"),
        Case(
            name: "payload is a number", body: Data(#"{"payload":5,"baseVersion":1}"#.utf8),
            status: 400, code: "invalid_request"),
        Case(
            name: "payload missing", body: Data(#"{"baseVersion":1}"#.utf8), status: 400,
            code: "invalid_request"),
        Case(
            name: "payload empty", body: Data(#"{"payload":"","baseVersion":1}"#.utf8), status: 400,
            code: "invalid_request"),
        Case(
            name: "baseVersion is text", body: Data(#"{"payload":"x","baseVersion":"1"}"#.utf8),
            status: 400, code: "invalid_request"),
        Case(
            name: "baseVersion is zero", body: Data(#"{"payload":"x","baseVersion":0}"#.utf8),
            status: 400, code: "invalid_request"),
        Case(
            name: "baseVersion is fractional",
            body: Data(#"{"payload":"x","baseVersion":1.5}"#.utf8), status: 400,
            code: "invalid_request"),
        Case(
            name: "baseVersion is a bool", body: Data(#"{"payload":"x","baseVersion":true}"#.utf8),
            status: 400, code: "invalid_request"),
        Case(
            name: "body is an array", body: Data(#"["payload"]"#.utf8), status: 400,
            code: "invalid_request"),
        Case(
            name: "deeply nested JSON",
            body: Data(
                (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
                    .utf8), status: 400, code: "invalid_json"),
        Case(
            name: "huge body", body: Data(count: WireRoutes.maxBodyBytes + 1), status: 413,
            code: "payload_too_large"),
        Case(
            name: "missing Idempotency-Key", headers: auth, status: 400,
            code: "missing_idempotency_key"),
        Case(
            name: "Idempotency-Key too long",
            headers: auth.merging(["Idempotency-Key": String(repeating: "k", count: 201)]) { $1 },
            status: 400, code: "missing_idempotency_key"),
        Case(
            name: "missing token", headers: ["Idempotency-Key": "k"], status: 401,
            code: "unauthorized"),
        Case(
            name: "wrong token", headers: ["Authorization": "Bearer nope", "Idempotency-Key": "k"],
            status: 401, code: "unauthorized"),
        Case(
            name: "not a bearer token",
            headers: ["Authorization": "Basic token", "Idempotency-Key": "k"], status: 401,
            code: "unauthorized"),
        Case(
            name: "bad note id", path: "/v1/notes/not-a-uuid", status: 400, code: "invalid_note_id"),
        Case(
            name: "unknown route", method: "GET", path: "/v1/nothing", status: 404,
            code: "not_found"),
        Case(
            name: "nested note path", path: "/v1/notes/\(existingID)/x", status: 404,
            code: "not_found"),
        Case(name: "GET on a note", method: "GET", status: 405, code: "method_not_allowed"),
        Case(
            name: "POST on changes", method: "POST", path: WireRoutes.changes, status: 405,
            code: "method_not_allowed"),
        Case(
            name: "DELETE of unknown note", method: "DELETE",
            path: WireRoutes.note("00000000-0000-4000-8000-000000000000"),
            query: ["baseVersion": "1"], status: 404, code: "not_found"),
        Case(
            name: "DELETE without baseVersion", method: "DELETE", status: 400,
            code: "invalid_request"),
        Case(
            name: "DELETE with baseVersion 0", method: "DELETE", query: ["baseVersion": "0"],
            status: 400, code: "invalid_request"),
        Case(
            name: "cursor not base64", method: "GET", path: WireRoutes.changes,
            query: ["since": "%%%"], headers: auth, status: 400, code: "invalid_cursor"),
        Case(
            name: "cursor of another format", method: "GET", path: WireRoutes.changes,
            query: ["since": Data("c2:1".utf8).base64EncodedString()], headers: auth, status: 400,
            code: "invalid_cursor"),
        Case(
            name: "empty cursor", method: "GET", path: WireRoutes.changes, query: ["since": ""],
            headers: auth, status: 400, code: "invalid_cursor"),
        Case(
            name: "limit 0", method: "GET", path: WireRoutes.changes, query: ["limit": "0"],
            headers: auth, status: 400, code: "invalid_limit"),
        Case(
            name: "limit 501", method: "GET", path: WireRoutes.changes, query: ["limit": "501"],
            headers: auth, status: 400, code: "invalid_limit"),
        Case(
            name: "limit not a number", method: "GET", path: WireRoutes.changes,
            query: ["limit": "ten"], headers: auth, status: 400, code: "invalid_limit"),
        Case(
            name: "wait 31", method: "GET", path: WireRoutes.changes, query: ["wait": "31"],
            headers: auth, status: 400, code: "invalid_wait"),
        Case(
            name: "wait negative", method: "GET", path: WireRoutes.changes, query: ["wait": "-1"],
            headers: auth, status: 400, code: "invalid_wait"),
        Case(
            name: "changes without token", method: "GET", path: WireRoutes.changes, headers: [:],
            status: 401, code: "unauthorized"),
        // A NUL was cut short by the C-string binding after a 200 (issue 12, 9): refused whole.
        Case(
            name: "NUL in the payload", body: Data(#"{"payload":"ab\u0000cd","baseVersion":1}"#.utf8),
            status: 400, code: "invalid_request"),
        Case(
            name: "NUL in a batch note's payload", method: "POST", path: WireRoutes.batch, headers: auth,
            body: Data(
                (#"{"changes":[{"op":"put","id":"\#(BadInputTests.existingID)","idempotencyKey":"k\u0000x","#
                    + #""payload":"p\u0000","baseVersion":1}]}"#).utf8),
            status: 400, code: "invalid_request"),
    ]

    @Test(arguments: cases)
    func badRequestGetsErrorAndChangesNothing(_ bad: Case) async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("alice")
        let created = await harness.put(
            Self.existingID, payload: "original", base: nil, token: token)
        try #require(created.status == 200)
        let before = try await harness.everything(token: token)
        let headers = bad.headers.mapValues {
            $0.replacingOccurrences(of: "Bearer token", with: "Bearer \(token)")
        }

        let response = await harness.server.handle(
            HTTPRequest(
                method: bad.method, path: bad.path, query: bad.query, headers: headers,
                body: bad.body))

        #expect(response.status == bad.status)
        #expect(response.errorCode == bad.code, "body: \(response.text)")
        #expect(response.header("Content-Type") == "application/json")
        let message = try response.decoded(ErrorResponseDTO.self).error.message
        #expect(message.count > 20)
        if bad.status == 401 { #expect(response.header("WWW-Authenticate") == "Bearer") }
        #expect(try await harness.everything(token: token) == before)
    }

    /// Only a real NUL is refused: an escaped backslash before `u0000` is six plain characters,
    /// stored whole.
    @Test func aBackslashBeforeU0000IsPlainTextStoredWhole() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("alice")
        let body = Data(#"{"payload":"a\\u0000b","baseVersion":null}"#.utf8)

        let response = await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(Self.existingID),
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": "k-plain"], body: body))

        #expect(response.status == 200, "body: \(response.text)")
        // A full listing (no cursor) carries every live note's payload, own writes included.
        let stored = try await harness.changes(token: token).changes.map(\.payload)
        #expect(stored == [#"a\u0000b"#])
    }
}
