import QuirePresentation
import SwiftUI

/// Seed 004 step 07: both versions side by side, each labelled by where it was typed, and the
/// choices the view model offers (Keep mine / Keep theirs / Keep both). A choice that deletes the
/// last place a text is asks first. Closes once the conflict is settled.
struct ConflictView: View {
    @State private var model: ConflictViewModel
    @State private var confirming: ConflictOption?
    @State private var asking = false
    @Environment(\.dismiss) private var dismiss

    init(model: ConflictViewModel) {
        _model = State(initialValue: model)
    }

    private var state: ConflictScreenState { model.viewState }

    var body: some View {
        NavigationStack {
            ScrollView {
                VStack(alignment: .leading, spacing: 16) {
                    if let message = state.message {
                        Text(message).font(.callout)
                    }
                    if let problem = state.problem {
                        Text(problem).font(.callout).foregroundStyle(.red)
                    }
                    HStack(alignment: .top, spacing: 12) {
                        ForEach(state.sides) { side in
                            ConflictSideView(side: side)
                        }
                    }
                    HStack {
                        ForEach(state.options) { option in
                            Button(option.title) { pick(option) }
                                .buttonStyle(.borderedProminent)
                        }
                    }
                }
                .padding()
            }
            .overlay {
                if state.isLoading { ProgressView() }
            }
            .navigationTitle("Conflict")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
        .onChange(of: state.isSettled) { _, settled in
            if settled { dismiss() }
        }
        .confirmationDialog(
            confirming?.confirmation ?? "", isPresented: $asking, titleVisibility: .visible, presenting: confirming
        ) { option in
            Button(option.title, role: .destructive) { choose(option) }
            Button("Cancel", role: .cancel) {}
        }
    }

    private func pick(_ option: ConflictOption) {
        if option.confirmation != nil {
            confirming = option
            asking = true
        } else {
            choose(option)
        }
    }

    private func choose(_ option: ConflictOption) {
        Task { [model] in await model.choose(option) }
    }
}
