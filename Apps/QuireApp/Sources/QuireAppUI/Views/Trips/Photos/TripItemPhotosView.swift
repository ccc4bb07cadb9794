import PhotosUI
import QuirePresentation
import SwiftUI

/// Issue 16 on the app: an item's photos, each its thumbnail from the device's photo cache or
/// where it stands; a PhotosPicker to add one, with the keep-location choice off unless turned on
/// for it; swipe to remove. It decides nothing.
struct TripItemPhotosView: View {
    @State private var model: TripPhotosViewModel
    @State private var picked: PhotosPickerItem?
    @State private var keepLocation = false
    /// The picked photo could not be read from the library (the app's part, before the queue).
    @State private var pickFailure: String?
    @Environment(\.dismiss) private var dismiss
    let title: String

    init(model: TripPhotosViewModel, title: String) {
        _model = State(initialValue: model)
        self.title = title
    }

    private var state: TripPhotosState { model.viewState }

    var body: some View {
        NavigationStack {
            List {
                Section {
                    PhotosPicker(selection: $picked, matching: .images) {
                        Label("Add a photo", systemImage: "photo.badge.plus")
                    }
                    .disabled(state.isAdding)
                    Toggle("Keep where it was taken", isOn: $keepLocation)
                    Text(state.locationNote).font(.caption).foregroundStyle(.secondary)
                }
                Section {
                    ForEach(state.tiles) { tile in
                        TripPhotoTileView(tile: tile)
                            .swipeActions {
                                if tile.canRemove {
                                    Button("Remove", role: .destructive) { remove(tile.id) }
                                }
                            }
                    }
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [pickFailure, state.problem]) }
            .overlay {
                if let empty = state.empty { EmptyStateView(title: empty, systemImage: "photo") }
            }
            .refreshable { [model] in await model.load() }
            .navigationTitle(title)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
        .onChange(of: keepLocation) { _, keep in
            if keep != state.keepLocation { model.setKeepLocation(keep) }
        }
        .onChange(of: state.keepLocation) { _, keep in
            if keepLocation != keep { keepLocation = keep }
        }
        .onChange(of: picked) { _, item in
            guard let item else { return }
            picked = nil
            add(item)
        }
    }

    private func add(_ item: PhotosPickerItem) {
        pickFailure = nil
        Task { [model] in
            do {
                guard let file = try await PickedPhoto.file(from: item) else { return }
                defer { try? FileManager.default.removeItem(at: file) }
                await model.add(file)
            } catch {
                pickFailure = "Couldn't read the photo from the library: \(error)"
            }
        }
    }

    private func remove(_ photo: String) {
        Task { [model] in await model.remove(photo) }
    }
}
