import Foundation
import QuireTestSupport
import Testing

/// `quire watch` (issue 11): more than a screenful of arrivals is one summary line, and every
/// `--json` event says when it happened.
@Suite struct CLIWatchTests {
    @Test func manyArrivalsAreOneSummaryLineAndJSONEventsCarryATime() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let plain = try BackgroundQuire.start(setup.laptop, "watch")
        defer { plain.stop() }
        let json = try BackgroundQuire.start(setup.laptop, "watch", "--json")
        defer { json.stop() }
        #expect(await eventually(timeout: 20) { json.output.contains("\"event\":\"status\"") })
        #expect(await eventually(timeout: 20) { plain.output.contains("] ") })

        for index in 0..<30 {
            try await setup.phone.ok("new", "--title", "Note \(index)", "--body", "x")
        }
        try await setup.phone.ok("sync")

        #expect(
            await eventually(timeout: 30) { plain.output.contains("received 30 notes") },
            "watch printed: \(plain.output)")
        #expect(!plain.output.contains("new: Note"))
        #expect(await eventually(timeout: 30) { json.output.contains("\"title\":\"Note 29\"") })
        let events = json.output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(!events.isEmpty)
        for event in events {
            let time = try #require(event["time"] as? String, "\(event)")
            #expect(ISO8601DateFormatter().date(from: time) != nil, "\(time)")
        }
    }
}
