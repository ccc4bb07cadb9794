import QuirePresentation
import SwiftUI

/// Sign in, create an account, or, signed in, sign out (warned first when changes have not
/// synced: signing out erases this device's notes).
struct AccountView: View {
    @Bindable var model: AccountViewModel
    @State private var askingToSignOut = false

    var body: some View {
        NavigationStack {
            Form {
                if let account = model.account {
                    Section("Signed in") {
                        LabeledContent("Username", value: account.username)
                        LabeledContent("Server", value: account.server)
                    }
                    if let key = model.recoveryKey {
                        RecoveryKeySection(key: key) { model.dismissRecoveryKey() }
                    }
                    Section {
                        Button("Sign out", role: .destructive) {
                            Task { [model] in await model.requestSignOut() }
                        }
                        .disabled(model.isWorking)
                    }
                } else {
                    SignInForm(model: model)
                }
                if let notice = model.notice {
                    Section { Text(notice).font(.footnote) }
                }
            }
            .navigationTitle("Account")
        }
        .onChange(of: model.signOutWarning) { _, warning in
            askingToSignOut = warning != nil
        }
        .onChange(of: askingToSignOut) { _, asking in
            // Closed without an answer (a tap outside): the next "Sign out" asks again.
            if !asking, model.signOutWarning != nil { model.cancelSignOut() }
        }
        .confirmationDialog(SignOutWarning.title, isPresented: $askingToSignOut, titleVisibility: .visible) {
            Button(SignOutWarning.confirm, role: .destructive) {
                Task { [model] in await model.confirmSignOut() }
            }
            Button("Cancel", role: .cancel) { model.cancelSignOut() }
        } message: {
            Text(model.signOutWarning ?? "")
        }
    }
}
