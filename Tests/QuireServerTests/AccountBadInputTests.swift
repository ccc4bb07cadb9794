import Foundation
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// Promise 8 for the accounts and sessions routes: each malformed body gets a 4xx naming the
/// field, and no account or session row changes.
struct AccountBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "POST"
        var path: String
        var body: Data
        var status = 400
        var code = "invalid_request"
        /// The field the message must name, quoted: `'kdf.salt'`.
        var field: String?

        var testDescription: String { name }
    }

    static let key32 = Data(repeating: 1, count: 32).base64EncodedString()
    static let salt16 = Data(repeating: 2, count: 16).base64EncodedString()
    static let wrapped = Data(repeating: 3, count: 60).base64EncodedString()

    static var validKDF: [String: Any] {
        [
            "algorithm": "pbkdf2-sha256", "salt": salt16, "iterations": 1_000,
        ]
    }
    static var validAccount: [String: Any] {
        [
            "username": "newbie", "authKey": key32, "kdf": validKDF, "wrappedNotesKey": wrapped,
        ]
    }
    static var validSignIn: [String: Any] {
        [
            "username": "ada", "authKey": key32, "deviceName": "laptop",
        ]
    }
    static var validPassword: [String: Any] {
        [
            "currentAuthKey": key32, "newAuthKey": key32, "kdf": validKDF,
            "wrappedNotesKey": wrapped,
        ]
    }

    /// `base` with `changes` applied; a value of NSNull removes the key; "kdf.x" edits the kdf.
    static func json(_ base: [String: Any], _ changes: [String: Any]) -> Data {
        var object = base
        for (key, value) in changes {
            if key.hasPrefix("kdf.") {
                var kdf = object["kdf"] as? [String: Any] ?? [:]
                let name = String(key.dropFirst(4))
                kdf[name] = value is NSNull ? nil : value
                object["kdf"] = kdf
            } else {
                object[key] = value is NSNull ? nil : value
            }
        }
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    static func account(
        _ name: String, _ changes: [String: Any], field: String?, code: String = "invalid_request"
    ) -> Case {
        Case(
            name: "register: \(name)", path: WireRoutes.accounts,
            body: json(validAccount, changes), code: code, field: field)
    }

    static func signIn(
        _ name: String, _ changes: [String: Any], field: String?, code: String = "invalid_request"
    ) -> Case {
        Case(
            name: "sign in: \(name)", path: WireRoutes.sessions, body: json(validSignIn, changes),
            code: code, field: field)
    }

    static func password(_ name: String, _ changes: [String: Any], field: String) -> Case {
        Case(
            name: "password: \(name)", method: "PUT", path: WireRoutes.password,
            body: json(validPassword, changes), field: field)
    }

    static let cases: [Case] = [
        Case(
            name: "register: malformed JSON", path: WireRoutes.accounts,
            body: Data(#"{"username":"#.utf8), code: "invalid_json"),
        Case(
            name: "register: body is an array", path: WireRoutes.accounts,
            body: Data("[1]".utf8)),
        Case(
            name: "register: huge body", path: WireRoutes.accounts,
            body: Data(count: 65 * 1024), status: 413, code: "payload_too_large"),
        account(
            "username missing", ["username": NSNull()], field: "username", code: "invalid_username"),
        account(
            "username with a space", ["username": "a b"], field: "username",
            code: "invalid_username"),
        account(
            "username too long", ["username": String(repeating: "a", count: 65)], field: "username",
            code: "invalid_username"),
        account("authKey missing", ["authKey": NSNull()], field: "authKey"),
        account("authKey not base64", ["authKey": "%%%"], field: "authKey"),
        account(
            "authKey 31 bytes", ["authKey": Data(count: 31).base64EncodedString()], field: "authKey"
        ),
        account("authKey a number", ["authKey": 5], field: "authKey"),
        account("kdf missing", ["kdf": NSNull()], field: "kdf"),
        account("kdf a string", ["kdf": "pbkdf2"], field: "kdf"),
        account("kdf.algorithm scrypt", ["kdf.algorithm": "scrypt"], field: "kdf.algorithm"),
        account(
            "kdf.salt 15 bytes", ["kdf.salt": Data(count: 15).base64EncodedString()],
            field: "kdf.salt"),
        account("kdf.iterations below the floor", ["kdf.iterations": 999], field: "kdf.iterations"),
        account("kdf.iterations text", ["kdf.iterations": "many"], field: "kdf.iterations"),
        account("kdf.iterations missing", ["kdf.iterations": NSNull()], field: "kdf.iterations"),
        account(
            "wrappedNotesKey 27 bytes", ["wrappedNotesKey": Data(count: 27).base64EncodedString()],
            field: "wrappedNotesKey"),
        account(
            "wrappedNotesKey 1025 bytes",
            ["wrappedNotesKey": Data(count: 1025).base64EncodedString()], field: "wrappedNotesKey"),
        signIn("empty body", [:], field: nil).with(body: Data(), code: "invalid_json"),
        signIn("deviceName missing", ["deviceName": NSNull()], field: "deviceName"),
        signIn(
            "deviceName too long", ["deviceName": String(repeating: "d", count: 201)],
            field: "deviceName"),
        signIn(
            "authKey 33 bytes", ["authKey": Data(count: 33).base64EncodedString()], field: "authKey"
        ),
        signIn("username a number", ["username": 7], field: "username"),
        signIn(
            "username with a slash", ["username": "a/b"], field: "username",
            code: "invalid_username"),
        Case(
            name: "refresh: refreshToken missing", path: WireRoutes.refreshSession,
            body: Data("{}".utf8), field: "refreshToken"),
        Case(
            name: "refresh: refreshToken empty", path: WireRoutes.refreshSession,
            body: Data(#"{"refreshToken":""}"#.utf8), field: "refreshToken"),
        password("currentAuthKey missing", ["currentAuthKey": NSNull()], field: "currentAuthKey"),
        password(
            "newAuthKey short", ["newAuthKey": Data(count: 16).base64EncodedString()],
            field: "newAuthKey"),
        password("kdf.iterations below the floor", ["kdf.iterations": 10], field: "kdf.iterations"),
        password(
            "wrappedNotesKey missing", ["wrappedNotesKey": NSNull()], field: "wrappedNotesKey"),
        Case(
            name: "GET on accounts", method: "GET", path: WireRoutes.accounts, body: Data(),
            status: 405, code: "method_not_allowed"),
        Case(
            name: "PUT on sessions", method: "PUT", path: WireRoutes.sessions, body: Data(),
            status: 405, code: "method_not_allowed"),
        Case(
            name: "unknown sessions path", path: "/v1/sessions/other/more", body: Data(), status: 404,
            code: "not_found"),
        Case(
            name: "unknown accounts path", method: "GET", path: "/v1/accounts/ada/other",
            body: Data(), status: 404, code: "not_found"),
    ]

    @Test(arguments: cases)
    func malformedRequestIsRefusedNamingTheFieldAndStoresNothing(_ bad: Case) async throws {
        let harness = try ServerHarness()
        let session = try await harness.session("ada")
        let before = try snapshot(harness)

        let response = await harness.server.handle(
            HTTPRequest(
                method: bad.method, path: bad.path,
                headers: ["Authorization": "Bearer \(session.accessToken)"], body: bad.body))

        #expect(response.status == bad.status, "body: \(response.text)")
        #expect(response.errorCode == bad.code, "body: \(response.text)")
        let message = try response.decoded(ErrorResponseDTO.self).error.message
        if let field = bad.field { #expect(message.contains("'\(field)'"), "message: \(message)") }
        #expect(try snapshot(harness) == before)
    }

    /// Every account and session row, as text, read through a second connection.
    private func snapshot(_ harness: ServerHarness) throws -> [String] {
        let db = try SQLiteConnection(path: harness.databasePath)
        let accounts = try db.query(
            """
            SELECT id || username || hex(auth_key_hash) || hex(kdf_salt) || kdf_iterations
                || hex(wrapped_notes_key) FROM accounts ORDER BY id
            """
        ) { $0.text(0) }
        let sessions = try db.query(
            "SELECT id || access_hash || refresh_hash || revoked FROM sessions ORDER BY id"
        ) { $0.text(0) }
        return accounts + sessions
    }
}

extension AccountBadInputTests.Case {
    func with(body: Data, code: String) -> Self {
        var copy = self
        copy.body = body
        copy.code = code
        return copy
    }
}
