import QuirePresentation
import QuireTrips
import SwiftUI

/// The trips: each with its dates, item count and what waits; a trip opens its days.
struct TripListView: View {
    let model: TripListViewModel
    /// The device's repositories the trip screens use.
    let screens: DeviceScreens

    @State private var showingInvitations = false

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
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    if screens.invitations != nil {
                        Button {
                            showingInvitations = true
                        } label: {
                            Label("Invitations", systemImage: "envelope")
                        }
                    }
                }
            }
            .sheet(isPresented: $showingInvitations) {
                if let invitations = screens.invitations {
                    TripInvitationsView(
                        model: TripInvitationsViewModel(invitations: invitations, sync: screens.sync))
                }
            }
            .navigationDestination(for: TripID.self) { id in
                TripView(trips: screens.device.trips, trip: id, members: screens.members, photos: screens.photos)
            }
        }
        .task { [model] in await model.onAppear() }
    }
}
