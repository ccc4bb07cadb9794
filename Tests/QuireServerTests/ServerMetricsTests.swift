import Foundation
import Testing

import struct QuireTestSupport.Exposition

@testable import QuireServer

/// `ServerMetrics`, `Histogram` and the label rules on their own, plus the exposition checker.
struct ServerMetricsTests {
    @Test(arguments: [
        ("/v1/notes/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a", "/v1/notes/{id}"),
        ("/v1/notes/not-a-uuid", "/v1/notes/{id}"),
        ("/v1/notes/a/b", "other"),
        // A slash a combining mark follows is still a slash (no `Character("/")`).
        ("/v1/notes/a/\u{301}b", "other"),
        ("/v1/accounts/a/\u{301}b/kdf", "other"),
        ("/v1/notes/", "other"),
        ("/v1/notes/changes", "/v1/notes/changes"),
        ("/v1/accounts/alice/kdf", "/v1/accounts/{username}/kdf"),
        ("/v1/accounts//kdf", "other"),
        ("/v1/accounts/a/b/kdf", "other"),
        ("/v1/accounts/current/password", "/v1/accounts/current/password"),
        ("/v1/sessions/current", "/v1/sessions/current"),
        ("/v1/health", "/v1/health"),
        ("/metrics", "/metrics"),
        ("/metrics/extra", "other"),
        ("/", "other"),
        ("/v1/private-path", "other"),
    ])
    func pathsMapToTheirTemplate(path: String, template: String) {
        #expect(ServerMetrics.routeTemplate(for: path) == template)
    }

    @Test func unknownMethodsShareOneLabel() {
        #expect(ServerMetrics.methodLabel("PUT") == "PUT")
        #expect(ServerMetrics.methodLabel("BREW") == "other")
        #expect(ServerMetrics.methodLabel("X-\(UUID().uuidString)") == "other")
    }

    @Test func labelValuesAreEscaped() throws {
        #expect(ServerMetrics.escapeLabelValue(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        let metrics = ServerMetrics(version: "1\"\\\n")
        let text = metrics.exposition(longPollWaiters: 0)
        let parsed = try Exposition(parsing: text)
        #expect(parsed.value("quire_build_info", ["version": "1\"\\\n"]) == 1)
    }

    @Test func observationsLandInTheirInclusiveBucket() {
        var histogram = Histogram(bounds: [0.1, 1, 30])
        for seconds in [0.05, 0.1, 0.5, 29, 30, 31, -1] { histogram.observe(seconds) }

        // -1 counts as 0; 0.1 and 30 sit exactly on a bound and belong to it.
        #expect(histogram.cumulativeCounts == [3, 4, 6, 7])
        #expect(histogram.count == 7)
        #expect(abs(histogram.sum - 90.65) < 1e-9)
    }

    @Test func recordedLongPollShowsInTheThirtySecondBucket() throws {
        let metrics = ServerMetrics()
        metrics.record(route: "/v1/notes/changes", method: "GET", status: 200, seconds: 29.5)
        metrics.record(route: "/v1/notes/changes", method: "GET", status: 200, seconds: 30.2)

        let parsed = try Exposition(parsing: metrics.exposition(longPollWaiters: 0))

        let bucket = "quire_http_request_duration_seconds_bucket"
        let selector = ["route": "/v1/notes/changes", "method": "GET"]
        #expect(parsed.value(bucket, selector.merging(["le": "20"]) { $1 }) == 0)
        #expect(parsed.value(bucket, selector.merging(["le": "30"]) { $1 }) == 1)
        #expect(parsed.value(bucket, selector.merging(["le": "60"]) { $1 }) == 2)
        #expect(parsed.value(bucket, selector.merging(["le": "+Inf"]) { $1 }) == 2)
        #expect(parsed.value("quire_http_requests_total", selector) == 2)
    }

    @Test func concurrentRecordsAreAllCounted() async throws {
        let metrics = ServerMetrics()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        metrics.requestStarted()
                        metrics.record(
                            HTTPRequest(method: "GET", path: "/v1/health"), status: 200,
                            duration: .microseconds(5))
                    }
                }
            }
        }
        let parsed = try Exposition(parsing: metrics.exposition(longPollWaiters: 0))
        #expect(parsed.value("quire_http_requests_total", ["route": "/v1/health"]) == 4_000)
        #expect(parsed.value("quire_http_requests_in_flight") == 0)
    }

    @Test(arguments: [
        "no_line_feed 1",
        "undeclared_metric 1\n",
        "# TYPE a counter\na{b=\"c} 1\n",
        "# TYPE a counter\na{b=\"\\x\"} 1\n",
        "# TYPE a counter\na one\n",
        "# TYPE a counter\na 1\na 2\n",
        "# TYPE a counter\n\na 1\n",
        "# TYPE a bogus\na 1\n",
    ])
    func checkerRejectsMalformedText(text: String) {
        #expect(throws: Exposition.Invalid.self) { try Exposition(parsing: text) }
    }
}
