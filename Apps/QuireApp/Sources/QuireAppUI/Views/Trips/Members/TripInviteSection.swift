import QuirePresentation
import QuireTrips
import SwiftUI

/// An owner's invitations: by username with a role, or a link to send privately.
struct TripInviteSection: View {
    let model: TripMembersViewModel

    @State private var username = ""
    @State private var role = TripMemberRole.editor

    private var state: TripMembersState { model.viewState }

    var body: some View {
        Section("Invite") {
            TextField("Username", text: $username)
                .autocorrectionDisabled()
                #if os(iOS)
                    .textInputAutocapitalization(.never)
                #endif
            Picker("Role", selection: $role) {
                ForEach(state.inviteRoles, id: \.self) { role in
                    Text(role.label).tag(role)
                }
            }
            .pickerStyle(.segmented)
            Button("Invite") {
                let name = username
                let chosen = role
                Task { [model] in
                    await model.invite(name, as: chosen)
                    if model.viewState.problem == nil { username = "" }
                }
            }
            Button("Make an invite link") {
                let chosen = role
                Task { [model] in await model.makeLink(for: chosen) }
            }
            if let link = state.link {
                Text(link.text).font(.caption.monospaced()).textSelection(.enabled)
                Text(link.note).font(.caption).foregroundStyle(.secondary)
                ShareLink(item: link.text)
                Button("Revoke this link", role: .destructive) {
                    Task { [model] in await model.revokeLink() }
                }
            }
        }
    }
}
