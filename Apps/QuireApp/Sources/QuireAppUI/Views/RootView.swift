import QuirePresentation
import SwiftUI

/// The tabs over the opened device, or why it could not be opened.
struct RootView: View {
    let model: AppModel

    var body: some View {
        if let screens = model.screens, let account = model.account {
            TabView {
                NotesView(
                    model: screens.notes, conflicts: screens.conflicts, history: screens.history,
                    syncFailure: model.syncFailure,
                    refresh: { [model] in await model.requestSync() }
                )
                .id(ObjectIdentifier(screens.notes))
                .tabItem { Label("Notes", systemImage: "note.text") }

                TripListView(model: screens.trips, screens: screens)
                    .id(ObjectIdentifier(screens.trips))
                    .tabItem { Label("Trips", systemImage: "airplane") }

                AccountView(model: account)
                    .tabItem { Label("Account", systemImage: "person.crop.circle") }
            }
        } else {
            EmptyStateView(title: model.openFailure ?? "Opening your notes…", systemImage: "exclamationmark.triangle")
        }
    }
}
