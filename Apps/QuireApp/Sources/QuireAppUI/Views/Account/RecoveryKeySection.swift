import SwiftUI

/// The new account's recovery key, shown once: with it, a forgotten password can be replaced;
/// without the password or the key, no one can read the notes.
struct RecoveryKeySection: View {
    let key: String
    let done: () -> Void

    var body: some View {
        Section("Your recovery key") {
            Text(key).font(.body.monospaced()).textSelection(.enabled)
            Text("Write it down and keep it safe. It is shown only now, and this app keeps no copy.")
                .font(.footnote).foregroundStyle(.secondary)
            Button("I have written it down", action: done)
        }
    }
}
