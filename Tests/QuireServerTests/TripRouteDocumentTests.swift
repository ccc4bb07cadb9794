import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The trips routes in the metrics labels and the OpenAPI document.
struct TripRouteDocumentTests {
    @Test(arguments: [
        ("/v1/trips", "/v1/trips"),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a", "/v1/trips/{id}"),
        ("/v1/trips/not-a-uuid", "/v1/trips/{id}"),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/ops", "/v1/trips/{id}/ops"),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/changes", "/v1/trips/{id}/changes"),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/photos", "other"),
        ("/v1/trips/a/b/c", "other"),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/members/ada", "/v1/trips/{id}/members/{username}"),
        ("/v1/accounts/ada/sharing-key", "/v1/accounts/{username}/sharing-key"),
        ("/v1/invites/x/accept", "/v1/invites/{invite}/accept"),
    ])
    func tripPathsMapToTheirTemplate(path: String, template: String) {
        #expect(ServerMetrics.routeTemplate(for: path) == template)
    }

    /// The JSON object at `path` (keys separated by `/`) in the served document.
    private func object(_ document: [String: Any], _ path: [String]) -> [String: Any]? {
        path.reduce(document as [String: Any]?) { $0?[$1] as? [String: Any] }
    }

    @Test func theDocumentStatesTheLimitsTheServerEnforces() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))
                as? [String: Any])
        let schemas = try #require(object(document, ["components", "schemas"]))
        let opsRequest = try #require(object(schemas, ["TripOpsRequest", "properties", "ops"]))
        let value = try #require(object(schemas, ["TripOp", "properties", "value"]))
        let hash = try #require(object(schemas, ["TripOp", "properties", "valueHash"]))
        let ops = try #require(object(document, ["paths", "/v1/trips/{id}/ops", "post", "responses"]))
        let changes = try #require(
            object(document, ["paths", "/v1/trips/{id}/changes", "get", "responses"]))

        #expect(opsRequest["maxItems"] as? Int == WireRoutes.maxTripOps)
        #expect(value["maxLength"] as? Int == WireRoutes.maxTripValueBytes)
        #expect(hash["pattern"] as? String == "^[0-9a-f]{64}$")
        #expect(Set(ops.keys) == ["200", "400", "401", "403", "404", "413", "422"])
        #expect(changes["410"] != nil)
        for template in [
            "/v1/accounts/current/sharing-key", "/v1/accounts/{username}/sharing-key", "/v1/trips/{id}/invites",
            "/v1/trips/{id}/members", "/v1/trips/{id}/members/{username}", "/v1/invites",
            "/v1/invites/{invite}/accept", "/v1/invites/{invite}/decline", "/v1/trips/{id}/links",
            "/v1/trips/{id}/links/{link}", "/v1/links/{link}/open", "/v1/links/{link}/join",
        ] {
            #expect(object(document, ["paths", template]) != nil, "\(template) is not documented")
        }
        let fieldText = try #require(object(schemas, ["TripOp", "properties", "field"])?["description"] as? String)
        for field in TripWireFields.tripFields.union(TripWireFields.itemFields) {
            #expect(fieldText.contains(field))
        }
    }
}
