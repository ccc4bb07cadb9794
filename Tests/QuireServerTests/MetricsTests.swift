import Foundation
import QuireWire
import Testing

import struct QuireTestSupport.Exposition

@testable import QuireServer

/// `GET /metrics` through `handle`: counters per route template, histograms, gauges, and no
/// client-chosen value in the text.
struct MetricsTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness()
    }

    private func scrape() async throws -> (response: HTTPResponse, metrics: Exposition) {
        let response = await harness.server.handle(
            HTTPRequest(method: "GET", path: "/metrics", remoteAddress: "127.0.0.1"))
        try #require(response.status == 200, "metrics answered \(response.status)")
        return (response, try Exposition(parsing: response.text))
    }

    private func requests(_ route: String, _ method: String, _ status: Int) -> [String: String] {
        ["route": route, "method": method, "status": "\(status)"]
    }

    @Test func requestsAreCountedByRouteTemplateWithoutClientValues() async throws {
        // Given an account, a saved note, a feed read, an unknown path and a bad token
        let token = try await harness.token("alice-metrics")
        let id = ServerHarness.uuid()
        let put = await harness.put(
            id, payload: "c2VjcmV0LXBheWxvYWQ=", base: nil, token: token, key: "key-7f3a")
        try #require(put.status == 200)
        _ = try await harness.changes(token: token)
        let missing = await harness.server.handle(
            HTTPRequest(method: "GET", path: "/v1/secret-path-b41c"))
        let unauthorized = await harness.changesResponse(token: "not-a-token-9d2e")
        try #require(missing.status == 404 && unauthorized.status == 401)

        // When metrics are scraped
        let (response, metrics) = try await scrape()

        // Then each request is counted under its template
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let total = "quire_http_requests_total"
        #expect(metrics.value(total, requests("/v1/notes/{id}", "PUT", 200)) == 1)
        #expect(metrics.value(total, requests("/v1/notes/changes", "GET", 200)) == 1)
        #expect(metrics.value(total, requests("/v1/notes/changes", "GET", 401)) == 1)
        #expect(metrics.value(total, requests("other", "GET", 404)) == 1)
        #expect(metrics.value(total, requests("/v1/accounts", "POST", 201)) == 1)
        #expect(metrics.value(total, requests("/v1/sessions", "POST", 200)) == 1)
        // and nothing the client chose appears anywhere in the text.
        for secret in [
            id, "alice-metrics", token, "c2VjcmV0LXBheWxvYWQ=", "key-7f3a", "secret-path-b41c",
            "not-a-token-9d2e", "Bearer",
        ] {
            #expect(!response.text.contains(secret), "metrics contain \(secret)")
        }
    }

    @Test func histogramBucketsAreCumulativeAndAgreeWithCounters() async throws {
        let token = try await harness.token("bob")
        for _ in 0..<3 {
            _ = await harness.put(ServerHarness.uuid(), payload: "cGF5", base: nil, token: token)
        }
        _ = await harness.changesResponse(token: "wrong")
        _ = await harness.server.handle(HTTPRequest(method: "GET", path: "/v1/health"))

        let (_, metrics) = try await scrape()

        let name = "quire_http_request_duration_seconds"
        let series = Set(
            metrics.all(name + "_count").map { [$0.labels["route"]!, $0.labels["method"]!] })
        try #require(series.contains(["/v1/notes/{id}", "PUT"]))
        for labels in series {
            let selector = ["route": labels[0], "method": labels[1]]
            let buckets = metrics.all(name + "_bucket", selector)
            let les = buckets.map {
                Double($0.labels["le"]!.replacingOccurrences(of: "+Inf", with: "inf"))!
            }
            #expect(
                les == les.sorted() && les.last == .infinity, "\(labels): le not ascending to +Inf")
            let counts = buckets.map(\.value)
            #expect(counts == counts.sorted(), "\(labels): buckets not cumulative")
            let count = try #require(metrics.value(name + "_count", selector))
            #expect(counts.last == count)
            let answered = metrics.all("quire_http_requests_total", selector).map(\.value)
            #expect(answered.reduce(0, +) == count, "\(labels): counter and histogram disagree")
            #expect(try #require(metrics.value(name + "_sum", selector)) >= 0)
        }
        #expect(metrics.value(name + "_count", ["route": "/v1/notes/{id}", "method": "PUT"]) == 3)
    }

    @Test func scrapeIsCountedFromTheNextScrapeOn() async throws {
        let (_, first) = try await scrape()
        #expect(first.all("quire_http_requests_total", ["route": "/metrics"]).isEmpty)

        let (_, second) = try await scrape()

        #expect(second.value("quire_http_requests_total", requests("/metrics", "GET", 200)) == 1)
        #expect(second.value("quire_build_info", ["version": "0.1.0"]) == 1)
        // The second scrape is itself in flight while it renders.
        #expect(second.value("quire_http_requests_in_flight") == 1)
    }

    @Test func otherMethodsOnMetricsAreRefusedAndLabelledOther() async throws {
        let response = await harness.server.handle(HTTPRequest(method: "BREW", path: "/metrics"))
        #expect(response.status == 405)

        let (_, metrics) = try await scrape()

        #expect(metrics.value("quire_http_requests_total", requests("/metrics", "other", 405)) == 1)
    }

    @Test func longPollDurationLandsAboveItsWait() async throws {
        let token = try await harness.token("carol")
        let cursor = try await harness.changes(token: token).nextCursor

        let poll = await harness.changesResponse(token: token, since: cursor, wait: 1)
        try #require(poll.status == 200)

        let (_, metrics) = try await scrape()
        let selector = ["route": "/v1/notes/changes", "method": "GET"]
        let name = "quire_http_request_duration_seconds"
        // Two feed reads: the quick one within 1 s, the held one only in higher buckets.
        #expect(metrics.value(name + "_count", selector) == 2)
        #expect(metrics.value(name + "_bucket", selector.merging(["le": "1"]) { $1 }) == 1)
        #expect(metrics.value(name + "_bucket", selector.merging(["le": "60"]) { $1 }) == 2)
        #expect(try #require(metrics.value(name + "_sum", selector)) >= 1)
    }

    @Test func waitersGaugeShowsHeldPolls() async throws {
        let token = try await harness.token("dave")
        let cursor = try await harness.changes(token: token).nextCursor
        let poll = Task { [harness] in
            await harness.changesResponse(token: token, since: cursor, wait: 30)
        }
        try #require(await eventually { await harness.server.notifier.waiterCount == 1 })

        let (_, during) = try await scrape()
        _ = await harness.put(ServerHarness.uuid(), payload: "d2FrZQ==", base: nil, token: token)
        _ = await poll.value
        let (_, after) = try await scrape()

        #expect(during.value("quire_longpoll_waiters") == 1)
        #expect(during.value("quire_http_requests_in_flight") == 2)
        #expect(after.value("quire_longpoll_waiters") == 0)
    }
}
