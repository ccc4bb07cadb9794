import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Pruning keeps every version for a day, then one a day, then one a week, then none; a deleted
/// note's last text whatever its age; and at most the account cap, oldest first. On both stores,
/// in bounded steps (issue 10, part 1).
struct HistoryPruningTests {
    /// Tokens that outlive the years these tests move the clock through.
    static var configuration: NotesServerConfiguration {
        var configuration = ServerHarness.configuration
        configuration.accessTokenTTL = 10 * 365 * 86_400
        // The tests move the clock years on; the session must outlive them as its token does.
        configuration.sessionLifetime = SessionLifetime(absolute: 10 * 365 * 86_400)
        return configuration
    }

    @Test(arguments: StoreKind.allCases) func versionsThinToOneADayThenOneAWeekThenNone(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store, configuration: Self.configuration)
        let token = try await harness.token("alice")
        // Versions 1 to 3 in one morning (the harness's clock starts at 08:00 UTC).
        let id = try await harness.writeVersions(["a", "b", "c"], token: token)
        harness.clock.advance(by: 2 * 86_400)
        #expect(await harness.put(id, payload: "d", base: 3, token: token).status == 200)
        harness.clock.advance(by: 3600)
        #expect(await harness.put(id, payload: "e", base: 4, token: token).status == 200)

        // Two days on: the morning keeps its last version; the hour-old one stays.
        #expect(try await harness.server.pruneHistory() == 2)
        #expect(try await harness.history(id, token: token).versions.map(\.version) == [5, 4, 3])

        // Forty days on, versions 3 and 4 share a week: its last stays.
        harness.clock.advance(by: 40 * 86_400)
        #expect(try await harness.server.pruneHistory() == 1)
        #expect(try await harness.history(id, token: token).versions.map(\.version) == [5, 4])

        // Past a year nothing earlier is kept; the current text always is.
        harness.clock.advance(by: 400 * 86_400)
        #expect(try await harness.server.pruneHistory() == 1)
        #expect(try await harness.history(id, token: token).versions.map(\.payload) == ["e"])
    }

    @Test(arguments: StoreKind.allCases) func aDeletedNotesLastTextStaysWhateverItsAge(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store, configuration: Self.configuration)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["old", "last"], token: token)
        #expect(await harness.delete(id, base: 2, token: token).status == 204)
        harness.clock.advance(by: 500 * 86_400)

        #expect(try await harness.server.pruneHistory() == 1)

        #expect(try await harness.trash(token: token).notes.map(\.last.payload) == ["last"])
    }

    @Test(arguments: StoreKind.allCases) func anAccountOverItsCapLosesItsOldestVersionsFirst(store: StoreKind)
        async throws
    {
        var configuration = Self.configuration
        configuration.history.accountBytes = 50
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let token = try await harness.token("alice")
        let bob = try await harness.token("bob")
        let payloads = (1...6).map { String(repeating: Character("\($0)"), count: 20) }
        let id = try await harness.writeVersions(payloads, token: token)
        let untouched = try await harness.writeVersions(["small", "small 2"], token: bob)

        // Five earlier versions of 20 bytes: the three oldest go to fit 50.
        #expect(try await harness.server.pruneHistory() == 3)

        #expect(try await harness.history(id, token: token).versions.map(\.version) == [6, 5, 4])
        #expect(try await harness.history(untouched, token: bob).versions.count == 2)
    }

    /// The cap is measured once the pass is past the account's last note: versions the pass is
    /// about to thin out must not push out the long tail of another note (found by the history
    /// benchmark: the cap was measured at the account's first note).
    @Test(arguments: StoreKind.allCases) func theCapCountsWhatIsLeftAfterThePassNotBefore(store: StoreKind)
        async throws
    {
        var configuration = Self.configuration
        configuration.history.accountBytes = 60
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let token = try await harness.token("alice")
        let text = { (character: Character) in String(repeating: character, count: 20) }
        // The first note by id: two earlier versions ten days apart, both kept by the policy.
        let kept = "00000000-0000-4000-8000-000000000001"
        for (index, payload) in ["a", "b", "c"].enumerated() {
            if index > 0 { harness.clock.advance(by: 10 * 86_400) }
            let response = await harness.put(
                kept, payload: text(Character(payload)), base: index == 0 ? nil : index, token: token)
            try #require(response.status == 200, "\(response.text)")
        }
        // The last note by id: four earlier versions in one morning, of which the policy keeps one.
        let busy = "ffffffff-0000-4000-8000-000000000001"
        for index in 0..<5 {
            let response = await harness.put(
                busy, payload: text(Character("\(index)")), base: index == 0 ? nil : index, token: token)
            try #require(response.status == 200, "\(response.text)")
            harness.clock.advance(by: 60)
        }
        harness.clock.advance(by: 2 * 86_400)

        // Before the pass: 40 + 80 bytes; after it: 40 + 20, within the cap of 60.
        #expect(try await harness.server.pruneHistory() == 3)
        #expect(try await harness.history(kept, token: token).versions.map(\.version) == [3, 2, 1])
        #expect(try await harness.history(busy, token: token).versions.map(\.version) == [5, 4])
    }

    @Test(arguments: StoreKind.allCases) func aPassInStepsOfOneNoteFinishesAndPrunesTheSame(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store, configuration: Self.configuration)
        let alice = try await harness.token("alice")
        let bob = try await harness.token("bob")
        var notes: [(String, String)] = []
        for token in [alice, bob, alice] {
            notes.append((try await harness.writeVersions(["1", "2", "3"], token: token), token))
        }
        harness.clock.advance(by: 2 * 86_400)

        #expect(try await harness.server.pruneHistory(batchSize: 1) == 3)

        for (id, token) in notes {
            #expect(try await harness.history(id, token: token).versions.map(\.version) == [3, 2])
        }
    }

    @Test func thePolicyKeepsEachDaysAndWeeksLastVersion() {
        let policy = HistoryRetention()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let day: TimeInterval = 86_400
        let versions = [
            (1, -400 * day), (2, -60 * day - 60), (3, -60 * day), (4, -3 * day - 60), (5, -3 * day),
            (6, -2 * day), (7, -3600), (8, -60),
        ].map { HistoryRetention.Version(number: $0.0, savedAt: now.addingTimeInterval($0.1)) }

        let pruned = policy.versionsToPrune(versions.shuffled(), now: now, noteDeleted: false)

        #expect(Set(pruned) == [1, 2, 4])
        #expect(policy.versionsToPrune(versions, now: now, noteDeleted: true).contains(8) == false)
        #expect(
            policy.versionsToPrune([versions[0]], now: now, noteDeleted: true).isEmpty,
            "a deleted note's newest version stays")
    }
}
