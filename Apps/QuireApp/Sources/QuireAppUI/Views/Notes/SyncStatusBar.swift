import QuirePresentation
import SwiftUI

/// The status label of seed 004 (Synced, Syncing…, Offline, N conflicts) under the list.
struct SyncStatusBar: View {
    let state: NotesViewState
    let syncFailure: String?

    var body: some View {
        VStack(spacing: 2) {
            HStack(spacing: 6) {
                if state.isSyncing { ProgressView().controlSize(.small) }
                Text(state.statusLabel).font(.footnote).foregroundStyle(.secondary)
            }
            if let syncFailure {
                Text(syncFailure).font(.caption).foregroundStyle(.red)
            }
        }
        .frame(maxWidth: .infinity)
        .padding(.vertical, 6)
        .background(.bar)
    }
}
