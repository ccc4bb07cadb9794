import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Each bound the OpenAPI document states is the one the server enforces (issue 12, item 13):
/// the bound is read from the document, then a value just inside it is accepted and one just
/// outside is refused with 400.
struct OpenAPIConstraintTests {
    /// The document, parsed anew on each use ([String: Any] is not Sendable, so not kept).
    static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))) as? [String: Any] ?? [:]
    }

    /// The object at `path` (keys; an integer string indexes an array) in the document.
    static func value(_ path: [String]) -> Any? {
        path.reduce(document as Any?) { node, key in
            if let array = node as? [Any], let index = Int(key) {
                return array.indices.contains(index) ? array[index] : nil
            }
            return (node as? [String: Any])?[key]
        }
    }

    static func int(_ path: [String]) throws -> Int {
        try #require(value(path) as? Int, "the document has no number at \(path.joined(separator: "/"))")
    }

    static func queryParameter(_ path: String, _ method: String, _ name: String) throws -> [String: Any] {
        let parameters = try #require(value(["paths", path, method, "parameters"]) as? [[String: Any]])
        let parameter = try #require(parameters.first { $0["name"] as? String == name })
        return try #require(parameter["schema"] as? [String: Any])
    }

    static func schema(_ name: String, _ property: String) throws -> [String: Any] {
        try #require(value(["components", "schemas", name, "properties", property]) as? [String: Any])
    }

    /// Whether `text` matches the document's `pattern` (an ECMA regex; these use its common part).
    static func matches(_ text: String, _ pattern: String) throws -> Bool {
        try NSRegularExpression(pattern: pattern).firstMatch(
            in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private func get(_ harness: ServerHarness, _ path: String, _ query: [String: String], token: String) async
        -> HTTPResponse
    {
        await harness.server.handle(
            HTTPRequest(method: "GET", path: path, query: query, headers: ["Authorization": "Bearer \(token)"]))
    }

    // MARK: - Query ranges

    @Test(arguments: [
        (WireRoutes.changes, "limit"), (WireRoutes.changes, "wait"), (WireRoutes.trips, "limit"),
        (WireRoutes.trips, "wait"),
    ])
    func queryRangesAreTheServersBounds(path: String, name: String) async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let schema = try Self.queryParameter(path, "get", name)
        let minimum = try #require(schema["minimum"] as? Int)
        let maximum = try #require(schema["maximum"] as? Int)
        // A held long-poll would wait its full time: the bound inside is checked with wait=0 and
        // the accepted maximum through the validation alone.
        let inside = name == "wait" ? [minimum] : [minimum, maximum]

        for value in inside {
            #expect(await get(harness, path, [name: "\(value)"], token: token).status == 200, "\(name)=\(value)")
        }
        for value in [minimum - 1, maximum + 1] {
            let response = await get(harness, path, [name: "\(value)"], token: token)
            #expect(response.status == 400, "\(path) \(name)=\(value) answered \(response.status)")
        }
        if name == "wait" {
            #expect(maximum == WireRoutes.maxWaitSeconds)
        }
    }

    @Test func tripChangesLimitIsTheServersBound() async throws {
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip()
        let schema = try Self.queryParameter("/v1/trips/{id}/changes", "get", "limit")
        let maximum = try #require(schema["maximum"] as? Int)
        let path = WireRoutes.tripChanges(trip)

        #expect(await get(harness, path, ["limit": "\(maximum)"], token: alice).status == 200)
        #expect(await get(harness, path, ["limit": "\(maximum + 1)"], token: alice).status == 400)
        #expect(await get(harness, path, ["limit": "0"], token: alice).status == 400)
    }

    // MARK: - Lengths and counts

    @Test func idempotencyKeyLengthIsTheServersBound() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let schema = try #require(
            Self.value(["components", "parameters", "IdempotencyKey", "schema"]) as? [String: Any])
        let most = try #require(schema["maxLength"] as? Int)

        let inside = await harness.put(
            ServerHarness.uuid(), payload: "c2VhbGVk", base: nil, token: token, key: String(repeating: "k", count: most)
        )
        let outside = await harness.put(
            ServerHarness.uuid(), payload: "c2VhbGVk", base: nil, token: token,
            key: String(repeating: "k", count: most + 1))

        #expect(inside.status == 200)
        #expect(outside.status == 400)
    }

    @Test func deviceNameLengthIsTheServersBound() async throws {
        let harness = try ServerHarness()
        _ = try await harness.session("ada")
        let most = try #require(try Self.schema("CreateSessionRequest", "deviceName")["maxLength"] as? Int)

        #expect(await harness.signIn("ada", device: String(repeating: "d", count: most)).status == 200)
        #expect(await harness.signIn("ada", device: String(repeating: "d", count: most + 1)).status == 400)
    }

    @Test func batchSizeIsTheServersBound() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let changes = try #require(
            Self.value(["components", "schemas", "BatchRequest", "properties", "changes"]) as? [String: Any])
        let most = try #require(changes["maxItems"] as? Int)
        let fewest = try #require(changes["minItems"] as? Int)
        func batch(_ count: Int) async -> HTTPResponse {
            let puts = (0..<count).map { _ in
                ["op": "put", "id": ServerHarness.uuid(), "idempotencyKey": UUID().uuidString, "payload": "c2VhbGVk"]
            }
            let body = try! JSONSerialization.data(withJSONObject: ["changes": puts])
            return await harness.server.handle(
                HTTPRequest(
                    method: "POST", path: WireRoutes.batch, headers: ["Authorization": "Bearer \(token)"], body: body))
        }

        #expect(await batch(most).status == 200)
        #expect(await batch(most + 1).status == 400)
        #expect(await batch(fewest).status == 200)
        #expect(await batch(fewest - 1).status == 400)
    }

    @Test func tripOpsCountAndValueLengthAreTheServersBounds() async throws {
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip()
        let most = try #require(try Self.schema("TripOpsRequest", "ops")["maxItems"] as? Int)
        let longest = try #require(try Self.schema("TripOp", "value")["maxLength"] as? Int)
        func ops(_ count: Int, valueLength: Int = 8) async -> HTTPResponse {
            let op = TripOpDTO(
                item: nil, field: "title", value: String(repeating: "A", count: valueLength),
                valueHash: String(repeating: "0", count: 64), baseRevision: 0)
            return await harness.opsResponse(
                trip,
                body: WireJSON.encode(
                    TripOpsRequestDTO(opId: ServerHarness.uuid(), ops: Array(repeating: op, count: count))),
                token: alice)
        }

        #expect(await ops(most).status == 200)
        #expect(await ops(most + 1).status == 400)
        #expect(await ops(1, valueLength: longest).status == 200)
        #expect(await ops(1, valueLength: longest + 1).status != 200)
    }

    // MARK: - Patterns

    @Test func usernamePatternIsTheServersRule() async throws {
        let harness = try ServerHarness()
        let pattern = try #require(try Self.schema("CreateAccountRequest", "username")["pattern"] as? String)
        for (name, valid) in [
            (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 65), false), ("", false),
            ("A.b_c-9", true), ("ada lovelace", false), ("ådа", false),
        ] {
            #expect(try Self.matches(name, pattern) == valid, "\(name)")
            let status = await harness.register(ServerHarness.registration(name)).status
            #expect((status == 201) == valid, "register \(name) answered \(status)")
        }
    }

    @Test(arguments: [
        ("authKey", 31, false), ("authKey", 32, true), ("authKey", 33, false),
        ("wrappedNotesKey", 27, false), ("wrappedNotesKey", 28, true), ("wrappedNotesKey", 1024, true),
        ("wrappedNotesKey", 1025, false), ("salt", 15, false), ("salt", 16, true), ("salt", 1024, true),
        ("salt", 1025, false),
    ])
    func base64SizesAreTheServersBounds(field: String, bytes: Int, valid: Bool) async throws {
        let harness = try ServerHarness()
        let schema = field == "salt" ? "KDFParameters" : "CreateAccountRequest"
        let pattern = try #require(try Self.schema(schema, field)["pattern"] as? String)
        let data = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let name = "ada\(field.count)\(bytes)"
        let registration =
            switch field {
            case "authKey": ServerHarness.registration(name, authKey: data)
            case "salt": ServerHarness.registration(name, salt: data)
            default: ServerHarness.registration(name, wrappedNotesKey: data)
            }

        #expect(try Self.matches(data.base64EncodedString(), pattern) == valid)
        #expect(await harness.register(registration).status == (valid ? 201 : 400))
    }

    /// A tag the server never gave out, but of the documented form, is a stale base (409), not
    /// a malformed request; a tag outside the form is 400. Null is no tag.
    @Test(arguments: [
        ("1", true), ("999999999999999", true), ("0", false), ("01", false), ("1000000000000000", false),
        ("-1", false), ("1e3", false),
    ])
    func versionTagPatternIsTheServersRule(tag: String, valid: Bool) async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let pattern = try #require(try Self.schema("PutNoteRequest", "baseVersionTag")["pattern"] as? String)
        let note = ServerHarness.uuid()
        #expect(await harness.put(note, payload: "c2VhbGVk", base: nil, token: token).status == 200)

        let response = await harness.put(note, payload: "c2VhbGVkMg", base: 1, baseTag: tag, token: token)

        #expect(try Self.matches(tag, pattern) == valid)
        #expect(response.status == (valid ? 409 : 400), "tag \(tag) answered \(response.status): \(response.text)")
    }

    @Test func kdfIterationsFloorIsTheConfiguredOneInTheServedDocument() async throws {
        let harness = try ServerHarness()
        let served = await harness.server.handle(HTTPRequest(method: "GET", path: "/v1/openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: served.body) as? [String: Any])
        let schemas = try #require(document["components"] as? [String: Any])["schemas"] as? [String: Any]
        let iterations = ((schemas?["KDFParameters"] as? [String: Any])?["properties"] as? [String: Any])?["iterations"]
        let floor = try #require((iterations as? [String: Any])?["minimum"] as? Int)

        #expect(floor == ServerHarness.configuration.minKDFIterations)
        let below = ServerHarness.registration("ada", iterations: floor - 1)
        #expect(await harness.register(below).status == 400)
        #expect(await harness.register(ServerHarness.registration("ada", iterations: floor)).status == 201)
    }

    @Test func queryIntegersStopWhereTheDocumentSays() async throws {
        let harness = try ServerHarness()
        let token = try await harness.token("ada")
        let deleteBase = try Self.queryParameter("/v1/notes/{id}", "delete", "baseVersion")
        let before = try Self.queryParameter("/v1/notes/{id}/versions", "get", "before")
        let note = ServerHarness.uuid()
        func delete(_ base: String) async -> HTTPResponse {
            await harness.server.handle(
                HTTPRequest(
                    method: "DELETE", path: WireRoutes.note(note), query: ["baseVersion": base],
                    headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": UUID().uuidString]))
        }
        let most = try #require(deleteBase["maximum"] as? Int)

        #expect(await delete("\(most)").status == 404)
        #expect(await delete("\(most + 1)").status == 400)
        let latest = try #require(before["maximum"] as? Int)
        let versions = WireRoutes.noteVersions(note)
        #expect(await get(harness, versions, ["before": "\(latest)"], token: token).status == 404)
        #expect(await get(harness, versions, ["before": "\(latest + 1)"], token: token).status == 400)
    }

    @Test func aNullRecoveryIsDocumentedAsNoRecoveryKey() async throws {
        let harness = try ServerHarness()
        let recovery = try Self.schema("CreateAccountRequest", "recovery")
        var body = try #require(
            try JSONSerialization.jsonObject(with: WireJSON.encode(ServerHarness.registration("ada"))) as? [String: Any]
        )
        body["recovery"] = NSNull()

        let response = await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.accounts, body: try JSONSerialization.data(withJSONObject: body)))

        #expect(recovery["nullable"] as? Bool == true)
        #expect(response.status == 201)
    }

    @Test func kdfIterationsCeilingIsTheServersBound() throws {
        #expect(
            try Self.int(["components", "schemas", "KDFParameters", "properties", "iterations", "maximum"])
                == RequestValidation.maxKDFIterations)
    }
}
