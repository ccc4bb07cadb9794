import Foundation
import Observation
import QuireTrips

/// The list of trips' brain: watches the trips through the repository. Uses nothing newer than
/// iOS 17 / macOS 14.
@MainActor
@Observable
public final class TripListViewModel {
    public private(set) var viewState = TripListState.build(list: nil)

    let repository: any TripsRepository
    let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private var list: [TripSummary]?
    @ObservationIgnored private var readProblem: String?

    /// - Parameter clock: paces subscribing again after the stream ended.
    public init(trips: any TripsRepository, clock: some Clock<Duration> = ContinuousClock()) {
        repository = trips
        sleep = { try await clock.sleep(for: $0) }
    }

    /// Watches the list until the caller's task is cancelled (SwiftUI's `.task`).
    /// A stream that ends (a failed read) is shown as `readProblem`, the rows kept, and
    /// subscribed to again after a pause.
    public func onAppear() async {
        await ResubscribingWatch.follow(
            subscribe: { repository.tripList() },
            receive: { list in
                self.list = list
                self.publish()
            },
            down: { isDown in
                self.readProblem = isDown ? "Couldn't read your trips; trying again" : nil
                self.publish()
            }, sleep: sleep)
    }

    private func publish() {
        let next = TripListState.build(list: list, readProblem: readProblem)
        if next != viewState { viewState = next }
    }
}
