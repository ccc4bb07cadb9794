import Foundation
import QuireTestSupport
import Testing

/// `quire search` through the built binary: local, offline, ranked, with the matching words marked.
@Suite struct CLISearchTests {
    @Test func searchFindsTitlesAndBodiesRankedWithMarkedWords() async throws {
        let root = try TemporaryDirectory(prefix: "quire-search")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let inBody = try await device.ok("new", "--title", "Week", "--body", "lunch at the café on Friday")
        let inTitle = try await device.ok("new", "--title", "Cafe list", "--body", "three places to try")
        try await device.ok("new", "--title", "Other", "--body", "nothing to see")

        let output = try await device.ok("search", "cafe")
        #expect(
            output == """
                \(inTitle.suffix(8))  **Cafe** list
                          three places to try
                \(inBody.suffix(8))  Week
                          lunch at the **café** on Friday
                """)
        let none = try await device.run("search", "zebra")
        #expect(none.exitCode == 0)
        #expect(none.stdout == "No notes match 'zebra'.\n")
    }

    @Test func searchJSONHasOneObjectPerHit() async throws {
        let root = try TemporaryDirectory(prefix: "quire-search")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Crème brûlée", "--body", "cream, sugar, eggs")
        let json = try await device.ok("search", "creme", "sugar", "--json")
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(hits.count == 1)
        #expect(hits.first?["id"] as? String == id)
        #expect(hits.first?["title"] as? String == "Crème brûlée")
        #expect(hits.first?["snippet"] as? String == "cream, **sugar**, eggs")
        #expect(hits.first?.keys.contains("conflictOf") == true)
        #expect(try await device.ok("search", "--json", "zebra") == "[\n\n]")
    }

    @Test func searchNeedsWords() async throws {
        let root = try TemporaryDirectory(prefix: "quire-search")
        defer { root.remove() }
        let result = try await CLIDevice(root, "d").run("search")
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("search needs words"))
    }
}
