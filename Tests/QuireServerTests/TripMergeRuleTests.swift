import Foundation
import QuireWire
import Testing

/// ``TripMergeRule`` on its own: a table of single ops, pairs of concurrent ops in both orders,
/// and the seed's two-request gap.
struct TripMergeRuleTests {
    static let item = "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a"

    static func state(_ plain: String?, _ revision: Int) -> TripFieldState {
        TripFieldState(
            value: plain.map(TripValue.sealed), valueHash: plain.map(TripValue.hash),
            revision: revision)
    }

    static func tombstone(_ deleted: Bool, _ revision: Int) -> TripFieldState {
        TripFieldState(value: "\(deleted)", valueHash: nil, revision: revision)
    }

    static func key(_ field: String, item: String? = item) -> TripFieldKey {
        TripFieldKey(item: item, field: field)
    }

    /// "Lunch" at 10:00, alive, in a trip at revision 5.
    static let lunch = TripMergeState(
        fields: [
            key("title"): state("Lunch", 1), key("start"): state("10:00", 2),
            key("deleted"): tombstone(false, 3), key("notes"): state(nil, 4),
        ], knownItems: [item], revision: 5)

    // MARK: - Single ops

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var state: TripMergeState
        var op: TripOpDTO
        var expected: TripOpResultDTO
        var testDescription: String { name }
    }

    static func applied(_ revision: Int) -> TripOpResultDTO {
        TripOpResultDTO(status: .applied, revision: revision)
    }

    static func conflict(_ field: String, _ server: TripFieldState) -> TripOpResultDTO {
        TripOpResultDTO(
            status: .conflict, conflictField: field, serverValue: server.value,
            serverValueHash: server.valueHash, serverRevision: server.revision)
    }

    static var deletedLunch: TripMergeState {
        var state = lunch
        state.fields[key("deleted")] = tombstone(true, 5)
        return state
    }

    static var deletedTrip: TripMergeState {
        var state = lunch
        state.fields[.tripTombstone] = tombstone(true, 5)
        return state
    }

    static var purged: TripMergeState {
        TripMergeState(revision: 9, purgedRevision: 7)
    }

    static let cases: [Case] = [
        Case(
            name: "a field that does not exist is written", state: lunch,
            op: TripValue.op(item, "location", "Time Out Market"), expected: applied(6)),
        Case(
            name: "an unknown item is created", state: lunch,
            op: TripValue.op(ServerHarness.uuid(), "title", "Dinner"), expected: applied(6)),
        Case(
            name: "a field unchanged since the base is written", state: lunch,
            op: TripValue.op(item, "title", "Lunch at Time Out Market", base: 1),
            expected: applied(6)),
        Case(
            name: "a base newer than the field is written", state: lunch,
            op: TripValue.op(item, "title", "Brunch", base: 5), expected: applied(6)),
        Case(
            name: "a field changed since the base to another value is a conflict", state: lunch,
            op: TripValue.op(item, "start", "12:30", base: 1),
            expected: conflict("start", state("10:00", 2))),
        Case(
            name: "a field that exists is a conflict for an op that never saw it", state: lunch,
            op: TripValue.op(item, "title", "Dinner", base: 0),
            expected: conflict("title", state("Lunch", 1))),
        Case(
            name: "the same value despite a stale base applies without a new revision",
            state: lunch, op: TripValue.op(item, "start", "10:00", base: 1), expected: applied(2)),
        Case(
            name: "the same value on a current base applies without a new revision", state: lunch,
            op: TripValue.op(item, "title", "Lunch", base: 1), expected: applied(1)),
        Case(
            name: "clearing a cleared field applies without a new revision", state: lunch,
            op: TripValue.op(item, "notes", nil, base: 0), expected: applied(4)),
        Case(
            name: "deleted compares the plain value", state: deletedLunch,
            op: TripValue.deleted(item, true, base: 0), expected: applied(5)),
        Case(
            name: "a restore from before the delete is a conflict", state: deletedLunch,
            op: TripValue.deleted(item, false, base: 3),
            expected: conflict("deleted", tombstone(true, 5))),
        Case(
            name: "a restore on the delete's revision applies", state: deletedLunch,
            op: TripValue.deleted(item, false, base: 5), expected: applied(6)),
        Case(
            name: "an edit of a deleted item is a conflict on deleted", state: deletedLunch,
            op: TripValue.op(item, "title", "Dinner", base: 9),
            expected: conflict("deleted", tombstone(true, 5))),
        Case(
            name: "the delete wins even over an edit to the value it holds", state: deletedLunch,
            op: TripValue.op(item, "title", "Lunch", base: 1),
            expected: conflict("deleted", tombstone(true, 5))),
        Case(
            name: "an edit of a deleted trip is a conflict on deleted", state: deletedTrip,
            op: TripValue.op(nil, "title", "Lisbon", base: 9),
            expected: conflict("deleted", tombstone(true, 5))),
        Case(
            name: "an item op in a deleted trip is rejected", state: deletedTrip,
            op: TripValue.op(item, "title", "Dinner", base: 1),
            expected: TripOpResultDTO(status: .rejected, reason: "trip_deleted")),
        Case(
            name: "a deleted trip is restored on its delete's revision", state: deletedTrip,
            op: TripValue.deleted(nil, false, base: 5), expected: applied(6)),
        Case(
            name: "an edit of an item purged after its delete meets the delete", state: purged,
            op: TripValue.op(item, "title", "Dinner", base: 4),
            expected: conflict("deleted", tombstone(true, 7))),
        Case(
            name: "a new item after a purge is created", state: purged,
            op: TripValue.op(item, "title", "Dinner", base: 0), expected: applied(10)),
        Case(
            name: "a purged item is restored by setting deleted", state: purged,
            op: TripValue.deleted(item, false, base: 7), expected: applied(10)),
    ]

    @Test(arguments: cases)
    func eachOpIsDecidedByTheRule(_ example: Case) {
        let outcome = TripMergeRule.apply([example.op], to: example.state)

        #expect(outcome.results == [example.expected])
        let wrote =
            example.expected.status == .applied
            && example.expected.revision == example.state.revision + 1
        #expect(outcome.revision == example.state.revision + (wrote ? 1 : 0))
        #expect(outcome.written.count == (wrote ? 1 : 0))
    }

    // MARK: - Concurrent ops, both orders

    enum Expectation: Sendable {
        /// Both apply; the final values do not depend on the order.
        case bothApply
        /// The first to arrive applies; the second is a conflict showing the first's value.
        case firstWins
        /// The item ends deleted in either order.
        case deleteWins
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        var name: String
        var a: TripOpDTO
        var b: TripOpDTO
        var expectation: Expectation
        var testDescription: String { name }
    }

    static let pairs: [Pair] = [
        Pair(
            name: "rename and retime of one item",
            a: TripValue.op(item, "title", "Lunch at Time Out Market", base: 1),
            b: TripValue.op(item, "start", "12:30", base: 2), expectation: .bothApply),
        Pair(
            name: "the same rename on two devices",
            a: TripValue.op(item, "title", "Lunch at Time Out Market", base: 1),
            b: TripValue.op(item, "title", "Lunch at Time Out Market", base: 1),
            expectation: .bothApply),
        Pair(
            name: "two different times",
            a: TripValue.op(item, "start", "12:30", base: 2),
            b: TripValue.op(item, "start", "13:00", base: 2), expectation: .firstWins),
        Pair(
            name: "a title cleared and a title renamed",
            a: TripValue.op(item, "title", nil, base: 1),
            b: TripValue.op(item, "title", "Dinner", base: 1), expectation: .firstWins),
        Pair(
            name: "a delete and an edit", a: TripValue.deleted(item, true, base: 3),
            b: TripValue.op(item, "title", "Dinner", base: 1), expectation: .deleteWins),
        Pair(
            name: "two deletes", a: TripValue.deleted(item, true, base: 3),
            b: TripValue.deleted(item, true, base: 3), expectation: .bothApply),
    ]

    /// The state after applying `ops` one request at a time, and each request's results.
    private static func run(_ ops: [TripOpDTO], on state: TripMergeState) -> (
        TripMergeState, [TripOpResultDTO]
    ) {
        var state = state
        var results: [TripOpResultDTO] = []
        for op in ops {
            let outcome = TripMergeRule.apply([op], to: state)
            state.fields.merge(outcome.written) { $1 }
            state.revision = outcome.revision
            results += outcome.results
        }
        return (state, results)
    }

    private static func values(_ state: TripMergeState) -> [TripFieldKey: String?] {
        state.fields.mapValues(\.value)
    }

    @Test(arguments: pairs)
    func concurrentOpsMergeTheSameInBothOrders(_ pair: Pair) {
        let (ab, abResults) = Self.run([pair.a, pair.b], on: Self.lunch)
        let (ba, baResults) = Self.run([pair.b, pair.a], on: Self.lunch)

        switch pair.expectation {
        case .bothApply:
            #expect(abResults.allSatisfy { $0.status == .applied })
            #expect(baResults.allSatisfy { $0.status == .applied })
            #expect(Self.values(ab) == Self.values(ba))
            #expect(ab.revision == ba.revision)
        case .firstWins:
            #expect(abResults.map(\.status) == [.applied, .conflict])
            #expect(baResults.map(\.status) == [.applied, .conflict])
            #expect(abResults[1].serverValue == pair.a.value)
            #expect(baResults[1].serverValue == pair.b.value)
            #expect(abResults[1].serverRevision == abResults[0].revision)
        case .deleteWins:
            #expect(ab.fields[Self.key("deleted")]?.isTombstone == true)
            #expect(ba.fields[Self.key("deleted")]?.isTombstone == true)
            // The edit that arrives after the delete comes back as a conflict on `deleted`.
            #expect(abResults[1].conflictField == "deleted")
        }
    }

    // MARK: - The seed's two-request gap

    @Test func secondOpOfOneFieldInASecondRequestIsNotAConflict() throws {
        let first = TripMergeRule.apply(
            [TripValue.op(Self.item, "title", "Lunch at Time Out Market", base: 1)], to: Self.lunch)
        var after = Self.lunch
        after.fields.merge(first.written) { $1 }
        after.revision = first.revision
        let firstRevision = try #require(first.results.first?.revision)

        let second = TripMergeRule.apply(
            [TripValue.op(Self.item, "title", "Lunch at Time Out", base: firstRevision)],
            to: after)

        #expect(first.results == [Self.applied(6)])
        #expect(second.results == [Self.applied(7)])
    }

    @Test func unfoldedOpsOfOneFieldInOneRequestFollowEachOther() {
        let outcome = TripMergeRule.apply(
            [
                TripValue.op(Self.item, "title", "Lunch at Time Out Market", base: 1),
                TripValue.op(Self.item, "title", "Lunch at Time Out", base: 1),
            ], to: Self.lunch)

        #expect(outcome.results == [Self.applied(6), Self.applied(7)])
        #expect(outcome.written[Self.key("title")]?.value == TripValue.sealed("Lunch at Time Out"))
    }

    @Test func restoreThenEditsInOneRequestBringTheItemBack() {
        let outcome = TripMergeRule.apply(
            [
                TripValue.deleted(Self.item, false, base: 5),
                TripValue.op(Self.item, "title", "Dinner", base: 1),
            ], to: Self.deletedLunch)

        #expect(outcome.results == [Self.applied(6), Self.applied(7)])
        #expect(outcome.written[Self.key("deleted")]?.value == "false")
        #expect(outcome.written[Self.key("title")]?.value == TripValue.sealed("Dinner"))
    }

    /// "Lunch" as `lunch` has it, with the newest revision of any of its fields (4) known.
    static var lunchWithItsRevision: TripMergeState {
        var state = lunch
        state.itemRevisions = [item: 4]
        return state
    }

    @Test func aDeleteHasSeenTheEditsItsOwnRequestMadeBeforeIt() {
        // The deleter typed the title, then deleted the item, offline: one request. Without its own
        // writes counted as seen, every other device would offer the deleter's title back.
        let outcome = TripMergeRule.apply(
            [
                TripValue.op(Self.item, "title", "Dinner", base: 1),
                TripValue.deleted(Self.item, true, base: 4),
            ], to: Self.lunchWithItsRevision)

        #expect(outcome.results == [Self.applied(6), Self.applied(7)])
        #expect(outcome.written[Self.key("deleted")]?.seenRevision == 6)
    }

    @Test func aDeleteHasNotSeenAnotherDevicesWriteAfterItsBase() {
        // Someone else wrote into the item at 5, after the delete's base of 4: that write stays
        // unseen, so it is offered back, whatever the deleter's own request wrote.
        var state = Self.lunchWithItsRevision
        state.fields[Self.key("start")] = Self.state("11:00", 5)
        state.itemRevisions = [Self.item: 5]
        let outcome = TripMergeRule.apply(
            [
                TripValue.op(Self.item, "title", "Dinner", base: 1),
                TripValue.deleted(Self.item, true, base: 4),
            ], to: state)

        #expect(outcome.results == [Self.applied(6), Self.applied(7)])
        #expect(outcome.written[Self.key("deleted")]?.seenRevision == 4)
    }

    @Test func revisionsAreGapFreeAcrossMixedResults() {
        let outcome = TripMergeRule.apply(
            [
                TripValue.op(Self.item, "location", "Mercado", base: 0),
                TripValue.op(Self.item, "start", "13:00", base: 0),
                TripValue.op(Self.item, "title", "Lunch", base: 0),
                TripValue.op(nil, "title", "Lisbon", base: 0),
            ], to: Self.lunch)

        #expect(outcome.results.map(\.status) == [.applied, .conflict, .applied, .applied])
        #expect(outcome.results.compactMap(\.revision) == [6, 1, 7])
        #expect(outcome.revision == 7)
    }
}
