import Foundation
import Observation
import QuireTrips

/// An item's photo strip's brain (issue 16): the item's photos with their thumbnails from the
/// device's photo cache, or where each stands (uploading, refused); adding one with the
/// keep-location choice off unless turned on for it; removing one.
@MainActor
@Observable
public final class TripPhotosViewModel {
    public private(set) var viewState = TripPhotosState()

    let repository: any TripPhotosRepository
    let item: ItemID
    @ObservationIgnored private var photos: [TripItemPhoto] = []
    /// Thumbnails found, by photo id, and the photos whose thumbnail could not be read.
    @ObservationIgnored private var thumbnails: [String: URL] = [:]
    @ObservationIgnored private var missing: Set<String> = []

    public init(photos: any TripPhotosRepository, item: ItemID) {
        repository = photos
        self.item = item
    }

    /// Reads the photos (again), then the thumbnails not shown yet (a photo of this device has
    /// one from the moment it is queued; one being removed is not looked for). A failed read
    /// keeps what was shown and says why.
    public func load() async {
        do {
            photos = try await repository.photos(of: item)
            viewState.problem = nil
            viewState.hasLoaded = true
            publish()
        } catch {
            viewState.problem = "Couldn't read the photos: \(error)"
            return
        }
        for photo in photos where photo.stage != .removing && photo.hasThumbnail && thumbnails[photo.id] == nil {
            do {
                if let file = try await repository.thumbnail(of: photo) { thumbnails[photo.id] = file }
            } catch {
                missing.insert(photo.id)  // Offline, or not downloaded yet: the tile says so.
            }
            publish()
        }
    }

    /// Keeps, or removes, the next photo's location.
    public func setKeepLocation(_ keep: Bool) {
        viewState.keepLocation = keep
        viewState.locationNote = keep ? TripPhotosState.locationKept : TripPhotosState.locationRemoved
    }

    /// Prepares and queues the photo at `source`; the location choice goes back to off. A failed
    /// add says why and keeps the choice, for another try.
    public func add(_ source: URL) async {
        viewState.isAdding = true
        defer { viewState.isAdding = false }
        do {
            try await repository.add(source, to: item, keepLocation: viewState.keepLocation)
            setKeepLocation(false)
            await load()
        } catch {
            viewState.problem = "Couldn't add the photo: \(error)"
        }
    }

    public func remove(_ photo: String) async {
        do {
            try await repository.remove(photo)
            await load()
        } catch {
            viewState.problem = "Couldn't remove the photo: \(error)"
        }
    }

    private func publish() {
        viewState.tiles = photos.map { photo in
            let thumbnail = photo.stage == .removing ? nil : thumbnails[photo.id]
            let shown = photo.stage == .shared && thumbnail != nil
            return TripPhotoTile(
                id: photo.id, thumbnail: thumbnail, status: shown ? nil : status(of: photo),
                isFailed: photo.stage == .failed, canRemove: photo.stage != .removing)
        }
        viewState.empty = photos.isEmpty ? "No photos yet." : nil
    }

    /// Where a photo without a thumbnail to show stands.
    private func status(of photo: TripItemPhoto) -> String {
        switch photo.stage {
        case .queued: return "Waiting to upload"
        case .uploading:
            let percent = photo.uploadBytes > 0 ? Int(photo.uploadedBytes * 100 / photo.uploadBytes) : 0
            return "Uploading \(percent)%"
        case .attaching: return "Finishing upload"
        case .failed: return "Couldn't upload: \(photo.error ?? "the server refused it")"
        case .removing: return "Removing…"
        case .shared:
            guard photo.hasThumbnail else { return "No preview" }
            return missing.contains(photo.id) ? "Preview not downloaded yet" : "Loading preview…"
        }
    }
}
