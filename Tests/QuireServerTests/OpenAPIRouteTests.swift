import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The OpenAPI document and the router agree (issue 12, item 13): every documented path and
/// method is served, every other method of a documented path is 405 with the documented methods
/// in `Allow`, every path the metrics label as a route is a documented one, and paths next to
/// them that the router does not serve are 404.
struct OpenAPIRouteTests {
    static let methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]

    /// The document's paths and, for each, its methods in upper case.
    static func documentedRoutes() throws -> [String: Set<String>] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return paths.mapValues { Set($0.keys.map { $0.uppercased() }) }
    }

    /// `template` with each path parameter replaced by a well-formed value.
    static func concrete(_ template: String) -> String {
        template
            .replacingOccurrences(of: "/v1/sessions/{id}", with: "/v1/sessions/0123456789abcdef")
            .replacingOccurrences(of: "{id}", with: "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a")
            .replacingOccurrences(of: "{username}", with: "ada")
            .replacingOccurrences(of: "{upload}", with: "0123456789abcdef0123456789abcdef")
            .replacingOccurrences(of: "{link}", with: "9d4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a")
            .replacingOccurrences(of: "{invite}", with: "ad4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a")
    }

    @Test func everyDocumentedPathIsTheMetricsRouteOfItsRequests() throws {
        for template in try Self.documentedRoutes().keys {
            #expect(ServerMetrics.routeTemplate(for: Self.concrete(template)) == template)
        }
    }

    @Test func everyDocumentedMethodIsServedAndEveryOtherIsRefusedWithTheDocumentedAllow() async throws {
        let harness = try ServerHarness()
        for (template, documented) in try Self.documentedRoutes() {
            for method in Self.methods {
                let response = await harness.server.handle(
                    HTTPRequest(method: method, path: Self.concrete(template), remoteAddress: "127.0.0.1"))
                if documented.contains(method) {
                    #expect(
                        ![404, 405].contains(response.status),
                        "\(method) \(template) answered \(response.status): \(response.text)")
                } else {
                    #expect(response.status == 405, "\(method) \(template) answered \(response.status)")
                    let allow = response.header("Allow") ?? ""
                    let allowed = Set(allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allowed == documented, "\(method) \(template): Allow \(allow)")
                }
            }
        }
    }

    @Test(arguments: [
        "/v1", "/v1/", "/v1/notes", "/v1/notes/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/x",
        "/v1/notes/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/versions/1", "/v1/sessions/a/b",
        "/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/photos", "/v1/accounts/current",
        "/v1/accounts/ada", "/v1/accounts/recovery", "/v2/notes/changes", "/metrics/x",
    ])
    func pathsTheDocumentDoesNotNameAreNotFound(path: String) async throws {
        let harness = try ServerHarness()

        let response = await harness.server.handle(HTTPRequest(method: "GET", path: path))

        #expect(response.status == 404, "\(path) answered \(response.status): \(response.text)")
        #expect(ServerMetrics.routeTemplate(for: path) == ServerMetrics.otherLabel)
    }
}
