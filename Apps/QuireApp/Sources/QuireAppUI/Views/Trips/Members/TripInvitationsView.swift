import QuirePresentation
import QuireTrips
import SwiftUI

/// Issue 15 on the app: the invitations waiting for this account, each with who sent it and
/// their key (warned when it changed), to join or decline; and joining by an invite link. Read
/// when the sheet opens; it decides nothing.
struct TripInvitationsView: View {
    @State private var model: TripInvitationsViewModel
    @State private var link = ""
    @Environment(\.dismiss) private var dismiss

    init(model: TripInvitationsViewModel) {
        _model = State(initialValue: model)
    }

    private var state: TripInvitationsState { model.viewState }

    var body: some View {
        NavigationStack {
            List {
                Section("Invitations") {
                    ForEach(state.rows) { row in
                        TripInvitationRowView(row: row, model: model)
                    }
                    if let empty = state.empty {
                        Text(empty).foregroundStyle(.secondary)
                    }
                }
                Section("Join by link") {
                    TextField("https://…/join/…", text: $link)
                        .autocorrectionDisabled()
                    Button("Join") {
                        let text = link
                        Task { [model] in
                            await model.join(link: text)
                            if model.viewState.problem == nil { link = "" }
                        }
                    }
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [state.message, state.problem]) }
            .overlay {
                if state.isLoading && !state.hasLoaded { ProgressView() }
            }
            .refreshable { [model] in await model.load() }
            .navigationTitle("Invitations")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
    }
}
