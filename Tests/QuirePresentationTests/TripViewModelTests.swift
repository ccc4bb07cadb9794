import Foundation
import QuireTrips
import Testing

@testable import QuirePresentation

/// The trip screen (seed 002): days and their items in order, pending badges, conflict banners,
/// empty states and the zone switch, through an in-memory repository and a manual clock.
@MainActor
struct TripViewModelTests {
    static let trip = TripID()
    static let lunch = ItemID()
    static let breakfast = ItemID()
    static let hat = ItemID()
    static let flight = ItemID()

    static func field(_ value: String?, revision: Int = 3, pending: Bool = false, conflict: TripFieldConflict? = nil)
        -> TripFieldState
    {
        TripFieldState(value: value, revision: revision, isPending: pending, conflict: conflict)
    }

    static func item(_ id: ItemID, _ title: String, start: String? = nil, order: String, pending: Bool = false)
        -> TripItemRecord
    {
        var fields: [TripField: TripFieldState] = [.title: field(title, pending: pending), .order: field(order)]
        if let start { fields[.start] = field(start) }
        return TripItemRecord(id: id, trip: trip, fields: fields)
    }

    static func lisbon(_ items: [TripItemRecord], deleted: [TripItemRecord] = []) -> TripRecord {
        TripRecord(
            id: trip, role: "owner",
            fields: [.title: field("Lisbon"), .startDate: field("2027-06-09"), .endDate: field("2027-06-12")],
            items: items, deletedItemsWithConflicts: deleted)
    }

    @MainActor
    final class Screen {
        let repository: FakeTripsRepository
        let clock = ManualClock()
        let viewModel: TripViewModel
        private var watch: Task<Void, Never>?

        init(_ trip: TripRecord?, viewerZone: String = "America/New_York") {
            repository = FakeTripsRepository(trip)
            viewModel = TripViewModel(
                trips: repository, trip: TripViewModelTests.trip, viewerZone: viewerZone, clock: clock)
        }

        var state: TripViewState { viewModel.viewState }

        func start() async throws {
            let viewModel = viewModel
            watch = Task { await viewModel.onAppear() }
            try await waitUntil("the trip read") { self.state.empty != .loading }
        }

        func stop() { watch?.cancel() }

        func waitUntil(_ what: String, _ condition: @MainActor () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(5)
            while !condition() {
                guard ContinuousClock.now < deadline else {
                    Issue.record("timed out waiting for \(what); state: \(state)")
                    throw CancellationError()
                }
                await Task.yield()
            }
        }
    }

    @Test func beforeTheTripIsReadTheScreenSaysLoading() {
        let screen = Screen(Self.lisbon([]))
        #expect(screen.state.empty == .loading)
        #expect(screen.state.empty?.headline == "Loading the trip…")
    }

    @Test func daysGroupItemsByTheirLocalDateInTimeOrderWithUnscheduledItemsLast() async throws {
        let screen = Screen(
            Self.lisbon([
                Self.item(Self.hat, "Buy a hat", order: "a0"),
                Self.item(Self.lunch, "Lunch", start: "2027-06-10T12:00 Europe/Lisbon", order: "a1"),
                Self.item(Self.flight, "Flight", start: "2027-06-12T10:00 Europe/Lisbon", order: "a2"),
                Self.item(Self.breakfast, "Breakfast", start: "2027-06-10T08:00 Europe/Lisbon", order: "a3"),
            ]))
        defer { screen.stop() }
        try await screen.start()

        #expect(screen.state.title == "Lisbon")
        #expect(screen.state.dates == "2027-06-09 to 2027-06-12")
        #expect(screen.state.days.map(\.title) == ["2027-06-10", "2027-06-12", "Unscheduled"])
        #expect(screen.state.days.map { $0.rows.map(\.title) } == [["Breakfast", "Lunch"], ["Flight"], ["Buy a hat"]])
        #expect(screen.state.days[0].rows.map(\.time) == ["08:00 Europe/Lisbon", "12:00 Europe/Lisbon"])
        #expect(screen.state.empty == nil)
        #expect(screen.state.pendingBadge == nil)
    }

    @Test func theZoneSwitchShowsEveryTimeInTheViewersZoneAndBack() async throws {
        let screen = Screen(
            Self.lisbon([Self.item(Self.lunch, "Lunch", start: "2027-06-10T12:00 Europe/Lisbon", order: "a0")]))
        defer { screen.stop() }
        try await screen.start()

        screen.viewModel.show(.viewer)
        #expect(screen.state.days.first?.rows.first?.time == "07:00 America/New_York")
        #expect(screen.state.zoneMode == .viewer)
        screen.viewModel.setViewerZone("Asia/Tokyo")
        #expect(screen.state.days.first?.rows.first?.time == "20:00 Asia/Tokyo")
        // 11:00 UTC is 01:00 the next day at UTC+14: the date is written, the day stays Lisbon's.
        screen.viewModel.setViewerZone("Pacific/Kiritimati")
        #expect(screen.state.days.first?.rows.first?.time == "2027-06-11 01:00 Pacific/Kiritimati")
        #expect(screen.state.days.first?.title == "2027-06-10")
        screen.viewModel.show(.item)
        #expect(screen.state.days.first?.rows.first?.time == "12:00 Europe/Lisbon")
    }

    @Test func unsyncedChangesShowABadgeOnTheItemAndACountOnTheTrip() async throws {
        let screen = Screen(Self.lisbon([Self.item(Self.lunch, "Lunch", order: "a0")]))
        defer { screen.stop() }
        try await screen.start()
        #expect(screen.state.days.first?.rows.first?.badges == [])

        screen.repository.set(
            Self.lisbon([Self.item(Self.lunch, "Lunch at Time Out Market", order: "a0", pending: true)]))

        try await screen.waitUntil("the edit") { screen.state.pendingBadge != nil }
        #expect(screen.state.pendingBadge == "1 change not synced")
        #expect(screen.state.days.first?.rows.first?.badges == ["not synced"])
        #expect(screen.state.days.first?.rows.first?.title == "Lunch at Time Out Market")
    }

    @Test func aTimeConflictAsksKeepMineAndKeepingMineResolvesWithMine() async throws {
        var lunch = Self.item(Self.lunch, "Lunch", start: "2027-06-10T12:30 Europe/Lisbon", order: "a0")
        lunch.fields[.start]?.conflict = TripFieldConflict(
            trip: Self.trip, item: Self.lunch, field: .start, mine: "2027-06-10T13:00 Europe/Lisbon",
            theirs: "2027-06-10T12:30 Europe/Lisbon", theirRevision: 5)
        let screen = Screen(Self.lisbon([lunch]))
        defer { screen.stop() }
        try await screen.start()

        let banner = try #require(screen.state.banners.first)
        #expect(banner.message == "Another device changed this to 12:30. Keep mine?")
        #expect(banner.mine == "13:00")
        #expect(screen.state.days.first?.rows.first?.badges == ["conflict"])
        #expect(screen.state.conflictCount == 1)

        screen.viewModel.keepMine(banner)
        await screen.viewModel.flush()
        #expect(screen.repository.choices == [.resolve(item: Self.lunch, field: .start, keep: .mine)])
    }

    @Test func aTitleConflictQuotesTheOtherTitleAndKeepTheirsResolvesWithTheirs() async throws {
        var lunch = Self.item(Self.lunch, "Lunch at Time Out Market", order: "a0")
        lunch.fields[.title]?.conflict = TripFieldConflict(
            trip: Self.trip, item: Self.lunch, field: .title, mine: "Long lunch", theirs: "Lunch at Time Out Market",
            theirRevision: 4)
        let screen = Screen(Self.lisbon([lunch]))
        defer { screen.stop() }
        try await screen.start()

        let banner = try #require(screen.state.banners.first)
        #expect(banner.message == "Another device changed this to “Lunch at Time Out Market”. Keep mine?")
        screen.viewModel.keepTheirs(banner)
        await screen.viewModel.flush()
        #expect(screen.repository.choices == [.resolve(item: Self.lunch, field: .title, keep: .theirs)])
    }

    @Test func anItemDeletedWhileEditedAsksToRestoreItAndRestoringRestoresIt() async throws {
        var lunch = Self.item(Self.lunch, "Long lunch", order: "a0")
        lunch.fields[.deleted] = Self.field("true")
        lunch.fields[.deleted]?.conflict = TripFieldConflict(
            trip: Self.trip, item: Self.lunch, field: .deleted, mine: "false", theirs: "true", theirRevision: 6,
            edits: [.title: TripEditedValue("Long lunch", startedFrom: nil)])
        let screen = Screen(Self.lisbon([], deleted: [lunch]))
        defer { screen.stop() }
        try await screen.start()

        #expect(screen.state.empty == .noItems)
        #expect(screen.state.deletedWhileEdited.map(\.title) == ["Long lunch"])
        let banner = try #require(screen.state.banners.first)
        #expect(banner.message == "This item was deleted. Restore it?")
        #expect(banner.isRestore)

        screen.viewModel.keepMine(banner)
        await screen.viewModel.flush()
        #expect(screen.repository.choices == [.restore(Self.lunch)])
    }

    @Test func aChoiceThatFailsIsShownAndTheBannerStays() async throws {
        var lunch = Self.item(Self.lunch, "Lunch", order: "a0")
        lunch.fields[.title]?.conflict = TripFieldConflict(
            trip: Self.trip, item: Self.lunch, field: .title, mine: "Mine", theirs: "Lunch", theirRevision: 2)
        let screen = Screen(Self.lisbon([lunch]))
        defer { screen.stop() }
        try await screen.start()
        screen.repository.failChoices()

        screen.viewModel.keepMine(try #require(screen.state.banners.first))
        await screen.viewModel.flush()

        #expect(screen.state.actionFailure == "Couldn't save your choice: the disk is full")
        #expect(screen.state.banners.count == 1)
    }

    @Test func anEmptyTripSaysNoPlansAndADeletedTripSaysSo() async throws {
        let screen = Screen(Self.lisbon([]))
        defer { screen.stop() }
        try await screen.start()
        #expect(screen.state.empty == .noItems)
        #expect(screen.state.empty?.headline == "No plans yet")

        screen.repository.set(nil)

        try await screen.waitUntil("the trip gone") { screen.state.empty == .tripGone }
        #expect(screen.state.days.isEmpty)
    }

    @Test func anEndedStreamShowsTheProblemKeepsTheTripAndIsReadAgainAfterTheClocksPause() async throws {
        let screen = Screen(Self.lisbon([Self.item(Self.lunch, "Lunch", order: "a0")]))
        defer { screen.stop() }
        try await screen.start()

        screen.repository.endStreams()

        try await screen.waitUntil("the failure shown") { screen.state.readProblem != nil }
        #expect(screen.state.readProblem == "Couldn't read the trip; trying again")
        #expect(screen.state.days.first?.rows.map(\.title) == ["Lunch"])
        try await screen.waitUntil("the retry waiting") { screen.clock.sleeperCount == 1 }
        #expect(screen.repository.subscriptions == 1)
        screen.repository.set(Self.lisbon([Self.item(Self.lunch, "Late lunch", order: "a0")]))  // nobody watching

        screen.clock.advance(by: .seconds(1))

        try await screen.waitUntil("recovered") { screen.state.readProblem == nil }
        #expect(screen.repository.subscriptions == 2)
        #expect(screen.state.days.first?.rows.map(\.title) == ["Late lunch"])
    }
}
