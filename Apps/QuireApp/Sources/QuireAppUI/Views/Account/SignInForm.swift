import QuirePresentation
import SwiftUI

/// The sign-in and registration fields; the view model checks them and talks to the server.
struct SignInForm: View {
    @Bindable var model: AccountViewModel

    var body: some View {
        Section {
            Picker("", selection: $model.mode) {
                ForEach(AccountFormMode.allCases, id: \.self) { mode in
                    Text(mode.title).tag(mode)
                }
            }
            .pickerStyle(.segmented)
            TextField("Server (https://…)", text: $model.server)
                .autocorrectionDisabled()
                #if os(iOS)
                    .textInputAutocapitalization(.never)
                    .keyboardType(.URL)
                #endif
            TextField("Username", text: $model.username)
                .autocorrectionDisabled()
                #if os(iOS)
                    .textInputAutocapitalization(.never)
                #endif
            SecureField("Password", text: $model.password)
        }
        Section {
            Button(model.submitTitle) {
                Task { [model] in await model.submit() }
            }
            .disabled(!model.canSubmit)
            if model.isWorking { ProgressView() }
            if let problem = model.problem {
                Text(problem).font(.footnote).foregroundStyle(.red)
            }
        }
    }
}
