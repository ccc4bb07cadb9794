import Foundation
import QuireTrips
import Testing

@testable import QuirePresentation

/// The list of trips: each with its dates, item count and what waits, and an honest empty state.
@MainActor
struct TripListViewModelTests {
    static func summary(
        _ title: String, start: String? = nil, end: String? = nil, items: Int = 0, pending: Int = 0,
        conflicts: Int = 0
    ) -> TripSummary {
        TripSummary(
            id: TripID(), title: title, startDate: start.flatMap { LocalDate($0) },
            endDate: end.flatMap { LocalDate($0) },
            role: "owner", itemCount: items, pendingCount: pending, conflictCount: conflicts)
    }

    @Test func rowsSayDatesItemsAndWhatWaits() {
        let lisbon = Self.summary("Lisbon", start: "2027-06-09", end: "2027-06-12", items: 3, pending: 2, conflicts: 1)
        let rows = TripListState.build(list: [lisbon, Self.summary("  ", items: 1)]).rows

        #expect(rows.map(\.title) == ["Lisbon", "Untitled trip"])
        #expect(rows[0].dates == "2027-06-09 to 2027-06-12")
        #expect(rows.map(\.detail) == ["3 items", "1 item"])
        #expect(rows[0].badges == ["2 not synced", "1 conflict"])
        #expect(rows[1].badges.isEmpty)
        #expect(rows[1].id != rows[0].id)
    }

    @Test func theListIsLoadingUntilTheDatabaseAnswers() {
        #expect(TripListState.build(list: nil).empty == "Loading your trips…")
        #expect(TripListState.build(list: []).empty == "No trips yet")
        #expect(TripListState.build(list: [Self.summary("Lisbon")]).empty == nil)
    }

    @Test func theViewModelFollowsTheList() async throws {
        let repository = FakeTripList([Self.summary("Lisbon")])
        let model = TripListViewModel(trips: repository)
        let watch = Task { await model.onAppear() }
        defer { watch.cancel() }
        try await waitUntil { model.viewState.rows.map(\.title) == ["Lisbon"] }

        repository.set([Self.summary("Lisbon"), Self.summary("Porto")])
        try await waitUntil { model.viewState.rows.count == 2 }
    }

    private func waitUntil(_ condition: @MainActor () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "timed out")
            await Task.yield()
        }
    }
}
