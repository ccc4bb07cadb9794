import Foundation
import Observation
import QuireTrips

/// The trip screen's brain (seed 002): watches one trip through the repository and turns it into
/// days of ordered items, pending badges, conflict banners and empty states; answers the banners
/// ("Keep mine?", "Restore it?") and the switch between each item's zone and the viewer's.
///
/// It watches, it never fetches: the screen is the trip's stream. A stream that ends (the
/// database ends its streams when a read fails) is shown as `readProblem`, the last state kept,
/// and subscribed to again after a pause on the injected clock. Choices reach the repository one
/// at a time, in the order they were made.
///
/// Uses nothing newer than iOS 17 / macOS 14.
@MainActor
@Observable
public final class TripViewModel {
    /// Everything the screen shows. Changes only when something visible changed.
    public private(set) var viewState: TripViewState

    let repository: any TripsRepository
    let tripID: TripID
    let sleep: @Sendable (Duration) async throws -> Void

    @ObservationIgnored private var record: TripRecord?
    @ObservationIgnored private var loaded = false
    @ObservationIgnored private var zoneMode: TripZoneMode = .item
    @ObservationIgnored private var viewerZone: String
    @ObservationIgnored private var readProblem: String?
    @ObservationIgnored private var actionFailure: String?
    @ObservationIgnored private var lastAction: Task<Void, Never>?
    @ObservationIgnored private var watching: Task<Void, Never>?

    /// - Parameters:
    ///   - viewerZone: the IANA zone of the person looking (the device's, by default).
    ///   - clock: paces subscribing again after a stream ended; tests pass a manual clock.
    public init(
        trips: any TripsRepository, trip: TripID, viewerZone: String = TimeZone.current.identifier,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        repository = trips
        tripID = trip
        self.viewerZone = viewerZone
        sleep = { try await clock.sleep(for: $0) }
        viewState = TripViewState(viewerZone: viewerZone)
    }

    // MARK: - Watching

    /// Watches the trip and keeps `viewState` current. Returns when the caller's task is cancelled
    /// (SwiftUI's `.task`) or ``onDisappear()`` is called; calling it again stops the earlier watch.
    public func onAppear() async {
        watching?.cancel()
        let watch = Task {
            await ResubscribingWatch.follow(
                subscribe: { self.repository.tripUpdates(self.tripID) },
                receive: { self.receive($0) },
                down: { isDown in
                    self.readProblem = isDown ? "Couldn't read the trip; trying again" : nil
                    self.publish()
                }, sleep: sleep)
        }
        watching = watch
        await ResubscribingWatch.wait(for: watch)
    }

    public func onDisappear() {
        watching?.cancel()
        watching = nil
    }

    private func receive(_ trip: TripRecord?) {
        record = trip
        loaded = true
        publish()
    }

    // MARK: - Actions

    /// Shows every time in each item's own zone, or in the viewer's.
    public func show(_ mode: TripZoneMode) {
        zoneMode = mode
        publish()
    }

    /// Changes the viewer's zone (a person travelling, or picking another).
    public func setViewerZone(_ zone: String) {
        viewerZone = zone
        publish()
    }

    /// "Keep mine": this device's value goes again on top of the server's; for a deleted item,
    /// it is restored with the edits.
    public func keepMine(_ banner: TripConflictBanner) {
        choose(banner, .mine)
    }

    /// "Keep theirs": the server's value stays; for a deleted item, the delete stands.
    public func keepTheirs(_ banner: TripConflictBanner) {
        choose(banner, .theirs)
    }

    private func choose(_ banner: TripConflictBanner, _ choice: TripConflictChoice) {
        let trip = tripID
        enqueue("Couldn't save your choice") { repository in
            if banner.isRestore, choice == .mine, let item = banner.item {
                try await repository.restoreItem(item)
            } else {
                try await repository.resolveConflict(trip: trip, item: banner.item, field: banner.field, keep: choice)
            }
        }
    }

    /// Returns once every choice made so far has been saved (or has failed).
    public func flush() async {
        await lastAction?.value
    }

    private func enqueue(_ failure: String, _ action: @escaping @Sendable (any TripsRepository) async throws -> Void) {
        let previous = lastAction
        let repository = repository
        lastAction = Task {
            await previous?.value
            do {
                try await action(repository)
                actionFailure = nil
            } catch {
                actionFailure = "\(failure): \(error)"
            }
            publish()
        }
    }

    // MARK: - Publishing

    private func publish() {
        let next = TripViewState.build(
            record: record, loaded: loaded, zoneMode: zoneMode, viewerZone: viewerZone, readProblem: readProblem,
            actionFailure: actionFailure)
        if next != viewState { viewState = next }
    }
}
