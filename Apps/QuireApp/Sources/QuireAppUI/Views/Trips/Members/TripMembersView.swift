import QuirePresentation
import QuireTrips
import SwiftUI

/// Issue 15 on the app: a shared trip's members with their roles and key fingerprints, a warning
/// on a changed key, and what this account's role allows (owners invite by name or link, change
/// roles and remove; anyone leaves, told first what would be lost). Read when the sheet opens;
/// it decides nothing.
struct TripMembersView: View {
    @State private var model: TripMembersViewModel
    @State private var removing: TripMemberRow?
    @State private var askingRemove = false
    @State private var askingKey = false
    @State private var askingLeave = false
    @Environment(\.dismiss) private var dismiss

    init(model: TripMembersViewModel) {
        _model = State(initialValue: model)
    }

    private var state: TripMembersState { model.viewState }

    var body: some View {
        NavigationStack {
            List {
                Section("Members") {
                    ForEach(state.rows) { row in
                        TripMemberRowView(row: row, model: model) {
                            removing = row
                            askingRemove = true
                        }
                    }
                }
                if state.canInvite {
                    TripInviteSection(model: model)
                }
                Section {
                    Button("Leave trip", role: .destructive) {
                        Task { [model] in
                            await model.prepareLeave()
                            askingLeave = model.viewState.leaveConfirmation != nil
                        }
                    }
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [state.message, state.problem]) }
            .overlay {
                if state.isLoading && !state.hasLoaded { ProgressView() }
            }
            .navigationTitle("Members")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
        .onChange(of: state.keyConfirmation) { _, question in askingKey = question != nil }
        .onChange(of: state.hasLeft) { _, left in
            if left { dismiss() }
        }
        .confirmationDialog(
            removing?.removeConfirmation ?? "", isPresented: $askingRemove, titleVisibility: .visible,
            presenting: removing
        ) { row in
            Button("Remove \(row.id)", role: .destructive) {
                Task { [model] in await model.remove(row.id) }
            }
            Button("Cancel", role: .cancel) {}
        }
        .confirmationDialog(state.keyConfirmation ?? "", isPresented: $askingKey, titleVisibility: .visible) {
            Button("Invite with this key") {
                Task { [model] in await model.inviteTrustingNewKey() }
            }
            Button("Cancel", role: .cancel) { model.cancelInvite() }
        }
        .confirmationDialog(
            state.leaveConfirmation ?? "", isPresented: $askingLeave, titleVisibility: .visible
        ) {
            Button("Leave", role: .destructive) {
                Task { [model] in await model.leave() }
            }
            Button("Cancel", role: .cancel) {}
        }
    }
}
