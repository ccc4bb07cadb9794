import QuirePresentation
import QuireTrips
import SwiftUI

/// One member: name, role and key, the warning when their key changed, and (for an owner looking
/// at someone else) a role menu and a remove button.
struct TripMemberRowView: View {
    let row: TripMemberRow
    let model: TripMembersViewModel
    let askToRemove: () -> Void

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text(row.name).font(.headline)
                Spacer()
                if row.roleChoices.isEmpty {
                    Text(row.role).foregroundStyle(.secondary)
                } else {
                    Menu(row.role) {
                        ForEach(row.roleChoices, id: \.self) { role in
                            Button(role.label) {
                                Task { [model] in await model.setRole(role, of: row.id) }
                            }
                        }
                    }
                }
            }
            Text(row.key).font(.caption.monospaced()).foregroundStyle(.secondary)
            if let warning = row.warning {
                Label(warning, systemImage: "exclamationmark.triangle").font(.caption).foregroundStyle(.orange)
            }
        }
        .swipeActions {
            if row.canRemove {
                Button("Remove", role: .destructive, action: askToRemove)
            }
        }
    }
}
