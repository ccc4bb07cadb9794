import Foundation

/// Everything an item's photo strip shows.
public struct TripPhotosState: Equatable, Sendable {
    public var tiles: [TripPhotoTile] = []
    /// Keep the photo's location (where it was taken) in the copy that uploads: off unless the
    /// person turns it on for the next photo.
    public var keepLocation = false
    /// What the location choice means.
    public var locationNote = TripPhotosState.locationRemoved
    /// A photo is being prepared and queued.
    public var isAdding = false
    /// The photos have been read at least once.
    public var hasLoaded = false
    /// What to show instead of tiles once read.
    public var empty: String?
    /// The last read, add or remove that failed, for people.
    public var problem: String?

    public init() {}

    static let locationRemoved = "Where the photo was taken is removed before it uploads."
    static let locationKept = "The photo keeps where it was taken; everyone in the trip can see it."
}
