import QuirePresentation
import QuireTrips
import SwiftUI

/// Seed 002: one trip's days and their items in order, what waits to sync, and the choices
/// waiting for the person ("Keep mine?", "Restore it?").
struct TripView: View {
    @State private var model: TripViewModel
    @State private var zoneMode = TripZoneMode.item
    @State private var showingMembers = false
    @State private var photosOf: TripItemRow?
    private let trip: TripID
    private let members: (any TripMembersRepository)?
    private let photos: any TripPhotosRepository

    init(
        trips: any TripsRepository, trip: TripID, members: (any TripMembersRepository)?,
        photos: any TripPhotosRepository
    ) {
        _model = State(initialValue: TripViewModel(trips: trips, trip: trip))
        self.trip = trip
        self.members = members
        self.photos = photos
    }

    private var state: TripViewState { model.viewState }

    var body: some View {
        List {
            Section {
                if let dates = state.dates { Text(dates) }
                if let notes = state.notes { Text(notes).foregroundStyle(.secondary) }
                if let pending = state.pendingBadge { Text(pending).font(.caption).foregroundStyle(.secondary) }
                Picker("Times", selection: $zoneMode) {
                    Text("Each place's time").tag(TripZoneMode.item)
                    Text("My time (\(state.viewerZone))").tag(TripZoneMode.viewer)
                }
                ForEach(Array(state.tripBanners.enumerated()), id: \.offset) { item in
                    TripConflictBannerView(banner: item.element, model: model)
                }
            }
            ForEach(state.days, id: \.title) { day in
                Section(day.title) {
                    ForEach(day.rows) { row in
                        TripItemRowView(row: row, model: model)
                            .contextMenu {
                                Button {
                                    photosOf = row
                                } label: {
                                    Label("Photos", systemImage: "photo.on.rectangle")
                                }
                            }
                    }
                }
            }
            if !state.deletedWhileEdited.isEmpty {
                Section("Deleted on another device") {
                    ForEach(state.deletedWhileEdited) { row in
                        TripItemRowView(row: row, model: model)
                    }
                }
            }
        }
        .safeAreaInset(edge: .top) { ProblemLines(lines: [state.readProblem, state.actionFailure]) }
        .overlay {
            if let empty = state.empty {
                EmptyStateView(title: empty.headline, systemImage: "calendar")
            }
        }
        .navigationTitle(state.title)
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                if members != nil {
                    Button {
                        showingMembers = true
                    } label: {
                        Label("Members", systemImage: "person.2")
                    }
                }
            }
        }
        .sheet(item: $photosOf) { row in
            TripItemPhotosView(model: TripPhotosViewModel(photos: photos, item: row.id), title: row.title)
        }
        .sheet(isPresented: $showingMembers) {
            if let members {
                TripMembersView(model: TripMembersViewModel(members: members, trip: trip, title: state.title))
            }
        }
        .task { [model] in await model.onAppear() }
        .onDisappear { model.onDisappear() }
        .onChange(of: zoneMode) { _, mode in model.show(mode) }
    }
}
