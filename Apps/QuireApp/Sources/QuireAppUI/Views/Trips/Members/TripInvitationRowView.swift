import QuirePresentation
import SwiftUI

/// One invitation: who sent it and their key, the warning when it changed, Join and Decline.
struct TripInvitationRowView: View {
    let row: TripInvitationRow
    let model: TripInvitationsViewModel

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(row.from).font(.headline)
            Text(row.key).font(.caption.monospaced()).foregroundStyle(.secondary)
            if let warning = row.warning {
                Label(warning, systemImage: "exclamationmark.triangle").font(.caption).foregroundStyle(.orange)
            }
            HStack {
                Button("Join") {
                    Task { [model] in await model.accept(row.id) }
                }
                .buttonStyle(.borderedProminent)
                Button("Decline", role: .destructive) {
                    Task { [model] in await model.decline(row.id) }
                }
                .buttonStyle(.bordered)
            }
        }
    }
}
