import Foundation
import QuireTrips
import Testing

@testable import QuirePresentation

/// An item's photos in the app (issue 16, as `quire trip photos` and `trip photo add ITEM FILE
/// [--keep-location]`): thumbnails from the device's photo cache, or where each photo stands; the
/// keep-location choice off unless turned on for the next photo.
@MainActor
struct TripPhotosViewModelTests {
    static let item = ItemID()
    static let photos = [
        TripItemPhoto(id: "beach", stage: .shared, hasThumbnail: true),
        TripItemPhoto(id: "old", stage: .shared, hasThumbnail: false),
        TripItemPhoto(id: "queued", stage: .queued, uploadBytes: 1000),
        TripItemPhoto(id: "halfway", stage: .uploading, uploadBytes: 1000, uploadedBytes: 400),
        TripItemPhoto(id: "attaching", stage: .attaching, uploadBytes: 1000, uploadedBytes: 1000),
        TripItemPhoto(id: "refused", stage: .failed, error: "the photo is larger than the server takes"),
        TripItemPhoto(id: "going", stage: .removing, hasThumbnail: true),
    ]
    static let source = URL(fileURLWithPath: "/tmp/IMG_0001.HEIC")

    func loaded(_ photos: [TripItemPhoto] = photos) async -> (TripPhotosViewModel, FakeTripPhotos) {
        let repository = FakeTripPhotos(photos)
        let model = TripPhotosViewModel(photos: repository, item: Self.item)
        await model.load()
        return (model, repository)
    }

    @Test func aSharedPhotoShowsItsThumbnailFromTheCache() async throws {
        let (model, repository) = await loaded()
        let beach = try #require(model.viewState.tiles.first)
        #expect(beach.thumbnail == FakeTripPhotos.cached("beach"))
        #expect(beach.status == nil)
        // Only shared photos with a thumbnail are looked for in the cache.
        #expect(repository.thumbnailsRead == ["beach"])
    }

    @Test func everyOtherPhotoSaysWhereItStands() async {
        let (model, _) = await loaded()
        let tiles = model.viewState.tiles

        #expect(tiles.map(\.id) == ["beach", "old", "queued", "halfway", "attaching", "refused", "going"])
        #expect(
            tiles.map(\.status) == [
                nil, "No preview", "Waiting to upload", "Uploading 40%", "Finishing upload",
                "Couldn't upload: the photo is larger than the server takes", "Removing…",
            ])
        #expect(tiles.map(\.isFailed) == [false, false, false, false, false, true, false])
        #expect(tiles.map(\.canRemove) == [true, true, true, true, true, true, false])
        #expect(tiles.dropFirst().allSatisfy { $0.thumbnail == nil })
    }

    @Test func aPhotoOfThisDeviceShowsItsThumbnailWhileItUploads() async {
        let (model, repository) = await loaded([
            TripItemPhoto(id: "mine", stage: .uploading, uploadBytes: 100, uploadedBytes: 50, hasThumbnail: true)
        ])
        #expect(model.viewState.tiles.map(\.thumbnail) == [FakeTripPhotos.cached("mine")])
        #expect(model.viewState.tiles.map(\.status) == ["Uploading 50%"])
        #expect(repository.thumbnailsRead == ["mine"])
    }

    @Test func aThumbnailThatCannotBeReadLeavesTheTileSayingSo() async {
        let repository = FakeTripPhotos([TripItemPhoto(id: "beach", stage: .shared, hasThumbnail: true)])
        repository.failThumbnails()
        let model = TripPhotosViewModel(photos: repository, item: Self.item)
        await model.load()
        #expect(model.viewState.tiles.map(\.status) == ["Preview not downloaded yet"])
        #expect(model.viewState.problem == nil)
    }

    @Test func anItemWithoutPhotosSaysSo() async {
        let (model, _) = await loaded([])
        #expect(model.viewState.hasLoaded)
        #expect(model.viewState.empty == "No photos yet.")
    }

    @Test func theLocationIsRemovedUnlessKeptForTheNextPhoto() async {
        let (model, repository) = await loaded([])
        #expect(!model.viewState.keepLocation)
        #expect(model.viewState.locationNote == "Where the photo was taken is removed before it uploads.")

        await model.add(Self.source)
        model.setKeepLocation(true)
        #expect(
            model.viewState.locationNote == "The photo keeps where it was taken; everyone in the trip can see it.")
        await model.add(Self.source)
        await model.add(Self.source)

        #expect(repository.adds.map(\.keepLocation) == [false, true, false])
        #expect(!model.viewState.keepLocation)
        #expect(model.viewState.tiles.map(\.status) == ["Waiting to upload", "Waiting to upload", "Waiting to upload"])
        #expect(model.viewState.empty == nil)
    }

    @Test func aFailedAddSaysWhyAndKeepsTheChoice() async {
        let (model, repository) = await loaded([])
        model.setKeepLocation(true)
        repository.fail()
        await model.add(Self.source)

        #expect(model.viewState.problem == "Couldn't add the photo: the disk is full")
        #expect(model.viewState.keepLocation)
        #expect(!model.viewState.isAdding)
    }

    @Test func removingAPhotoShowsItGoing() async {
        let (model, repository) = await loaded()
        await model.remove("beach")
        #expect(repository.removes == ["beach"])
        #expect(model.viewState.tiles.first?.status == "Removing…")
        #expect(model.viewState.tiles.first?.canRemove == false)
    }

    @Test func aFailedReadSaysWhyAndKeepsTheTiles() async {
        let (model, repository) = await loaded()
        repository.fail()
        await model.load()
        #expect(model.viewState.problem == "Couldn't read the photos: the disk is full")
        #expect(model.viewState.tiles.count == 7)
        await model.remove("beach")
        #expect(model.viewState.problem == "Couldn't remove the photo: the disk is full")
    }
}
