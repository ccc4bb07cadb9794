import QuirePresentation
import QuireTrips
import SwiftUI

/// The trips: each with its dates, item count and what waits; a trip opens its days.
struct TripListView: View {
    let model: TripListViewModel
    let trips: any TripsRepository
    /// Sharing: nil when signed out.
    let members: (any TripMembersRepository)?
    let photos: any TripPhotosRepository

    private var state: TripListState { model.viewState }

    var body: some View {
        NavigationStack {
            List(state.rows) { row in
                NavigationLink(value: row.id) {
                    VStack(alignment: .leading, spacing: 2) {
                        Text(row.title).font(.headline)
                        Text([row.dates, row.detail].compactMap { $0 }.joined(separator: " · "))
                            .font(.subheadline).foregroundStyle(.secondary)
                        if !row.badges.isEmpty {
                            Text(row.badges.joined(separator: " · ")).font(.caption2).foregroundStyle(.orange)
                        }
                    }
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [state.readProblem]) }
            .overlay {
                if let empty = state.empty {
                    EmptyStateView(title: empty, systemImage: "airplane")
                }
            }
            .navigationTitle("Trips")
            .navigationDestination(for: TripID.self) { id in
                TripView(trips: trips, trip: id, members: members, photos: photos)
            }
        }
        .task { [model] in await model.onAppear() }
    }
}
