import Foundation
import QuireClient
import QuireCrypto
import QuireLock
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// The device's photo queue (issue 16, parts 3 and 5) against an upload server in memory: a photo
/// is sealed and queued, uploaded piece by piece with each confirmed offset saved, resumed from
/// there after a lost connection, started over when the server forgot it, refused and kept, and
/// attached only once complete; a download is opened, checked and cached.
@Suite struct PhotoQueueTests {
    struct Fixture {
        let directory: TemporaryDirectory
        let database: TripsDatabase
        let server = FakeUploadServer()
        let trip: TripID
        let item: ItemID
        var media: URL { directory.path("media") }

        init() async throws {
            directory = try TemporaryDirectory(prefix: "quire-photos")
            database = try TripsDatabase(fileURL: directory.path("trips.sqlite"))
            trip = try await database.createTrip(title: "Lisbon")
            item = try await database.addItem(to: trip, [.title: "Lunch", .order: "a0"])
            try await database.markOnServer(trip)
        }

        var tus: TusClient {
            TusClient(http: AuthorizedTransport(transport: server, tokens: StaticTokenProvider(token: "t")))
        }

        func uploader(pieceSize: Int = 100_000) -> PhotoUploader {
            PhotoUploader(database: database, tus: tus, mediaDirectory: media, pieceSize: pieceSize)
        }

        /// Queues a photo of `count` random bytes; its id and bytes.
        func add(count: Int = 450_000) async throws -> (id: String, bytes: Data) {
            let bytes = SecureRandom.bytes(count)
            let file = directory.path("photo-\(UUID().uuidString).jpg")
            try bytes.write(to: file)
            let queue = PhotoQueue(trips: database, mediaDirectory: media, preparer: CopyingPhotoPreparer())
            let photo = try await queue.add(file, to: item, keepLocation: false)
            return (photo.id, bytes)
        }
    }

    @Test func aQueuedPhotoIsSealedShownAndCountedButNotAnOpUntilItIsUploaded() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }

        let (id, bytes) = try await fixture.add()
        let photos = try await fixture.database.photos(of: fixture.item)
        let sealed = try Data(contentsOf: fixture.media.appendingPathComponent("\(id).sealed"))

        #expect(photos.map(\.id) == [id] && photos.first?.state == .queued)
        #expect(photos.first?.size == Int64(bytes.count))
        #expect(sealed.count == ChunkedSealer.sealedByteCount(plaintextByteCount: bytes.count))
        #expect(sealed.range(of: bytes.prefix(64)) == nil)
        // The trip's title, the item's title and order: no photo field yet.
        #expect(try await fixture.database.unsentChanges(of: fixture.trip) == 3)
        let summary = try await fixture.database.photoUploadSummary()
        #expect(summary.photos == 1 && summary.uploadedBytes == 0 && summary.totalBytes == photos.first?.uploadBytes)
        // No plaintext copy is left beside the sealed files.
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.media.path).sorted()
        #expect(left == ["\(id).sealed", "\(id).thumb.sealed"])
    }

    @Test func aLostConnectionResumesFromTheConfirmedOffsetAndAttachesOnlyWhenComplete() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, bytes) = try await fixture.add()
        // The thumbnail's one PATCH, the photo's first two, then the connection drops.
        fixture.server.state.withLock { $0.patchesBeforeLoss = 3 }

        let first = await fixture.uploader().run()
        let halfway = try #require(try await fixture.database.photos(of: fixture.item).first)
        let second = await fixture.uploader().run()
        let done = try await fixture.database.photos(of: fixture.item)

        #expect(first.deferred == 1 && first.pushed == 0 && first.failure != nil)
        #expect(halfway.state == .uploading)
        #expect(halfway.uploadedBytes == 1_060 + 200_000, "the thumbnail's sealed bytes and two pieces")
        #expect(second.pushed == 1 && second.failure == nil)
        let offsets = fixture.server.state.withLock { $0.patchOffsets }
        #expect(offsets == [0, 0, 100_000, 200_000, 300_000, 400_000], "no piece was sent twice: \(offsets)")
        #expect(fixture.server.state.withLock { $0.created } == 2)
        #expect(done.first?.state == .attaching)
        // The attach op holds what a companion needs, and no upload or key is missing.
        let request = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        let op = try #require(request.ops.first { $0.field == TripWireFields.photoField(id) })
        let attachment = try #require(op.value.flatMap(PhotoAttachment.init(fieldValue:)))
        #expect(attachment.photo.size == Int64(bytes.count) && attachment.photo.sha256 == SHA256Digest.hex(bytes))
        #expect(attachment.photo.upload.count == 32 && attachment.thumbnail?.upload.count == 32)
        let stored = try #require(fixture.server.bytes(attachment.photo.upload))
        let opened = fixture.directory.path("opened.jpg")
        try stored.write(to: fixture.directory.path("stored.sealed"))
        try ChunkedOpener.openFile(
            at: fixture.directory.path("stored.sealed"), to: opened, key: try #require(attachment.photo.fileKey))
        #expect(try Data(contentsOf: opened) == bytes)
        // The sealed files go once attached; the acknowledgement makes the photo shared.
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.media.path).isEmpty)
        _ = try await fixture.database.settle(request, answers: request.ops.map { _ in .applied(revision: 3) })
        #expect(try await fixture.database.photos(of: fixture.item).first?.state == .shared)
        #expect(try await fixture.database.photoUploadSummary().photos == 0)
    }

    @Test func anUploadTheServerForgotStartsOverAsANewOne() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        _ = try await fixture.add()
        fixture.server.state.withLock { $0.patchesBeforeLoss = 2 }
        _ = await fixture.uploader().run()
        fixture.server.forgetUploads()

        let report = await fixture.uploader().run()

        #expect(report.pushed == 1)
        // The thumbnail and the photo, then both again: HEAD found neither.
        #expect(fixture.server.state.withLock { $0.created } == 4)
        #expect(try await fixture.database.photos(of: fixture.item).first?.state == .attaching)
    }

    @Test func aRefusedUploadIsKeptFailedWithTheServersReason() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, _) = try await fixture.add()
        fixture.server.state.withLock {
            $0.refusal = (403, "forbidden", "You are a viewer of this trip: only its editors and owners can change it.")
        }

        let report = await fixture.uploader().run()
        let photo = try #require(try await fixture.database.photos(of: fixture.item).first)

        #expect(report.refused == 1 && report.failure == nil)
        #expect(photo.id == id && photo.state == .failed)
        #expect(photo.error?.contains("viewer") == true)
        #expect(try await fixture.database.photoUploadSummary().failed == 1)
        let waiting = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        #expect(!waiting.ops.contains { $0.field.hasPrefix(TripWireFields.photoFieldPrefix) })
        // Removing it takes it out of the queue with its files.
        try await PhotoQueue(trips: fixture.database, mediaDirectory: fixture.media, preparer: CopyingPhotoPreparer())
            .remove(String(id.prefix(8)))
        #expect(try await fixture.database.photos(of: fixture.item).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.media.path).isEmpty)
    }

    @Test func aPhotoRemovedMidUploadHasItsUploadsTerminatedByTheNextSync() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, _) = try await fixture.add()
        let (other, _) = try await fixture.add()
        fixture.server.state.withLock { $0.patchesBeforeLoss = 2 }
        // The first photo's upload is cut off; the second goes up whole in the same run.
        _ = await fixture.uploader().run()
        #expect(fixture.server.state.withLock { $0.uploads.count } == 4)

        try await PhotoQueue(trips: fixture.database, mediaDirectory: fixture.media, preparer: CopyingPhotoPreparer())
            .remove(id)
        let shown = try await fixture.database.photos(of: fixture.item).map(\.id)
        let report = await fixture.uploader().run()

        #expect(shown == [other])
        #expect(report.failure == nil)
        // Only the other photo's two uploads are left on the server.
        #expect(fixture.server.state.withLock { $0.uploads.count } == 2)
        #expect(try await fixture.database.photos(of: fixture.item).map(\.id) == [other])
        #expect(try await fixture.database.photoUploadSummary().photos == 0)
        await #expect(throws: PhotoError.self) { try await fixture.database.photo(id) }
    }

    @Test func aPhotoRemovedAfterItsAttachHasItsUploadsTerminatedOnceTheRemovalIsConfirmed() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, _) = try await fixture.add()
        _ = await fixture.uploader().run()
        let attach = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        _ = try await fixture.database.settle(attach, answers: attach.ops.map { _ in .applied(revision: 2) })
        #expect(try await fixture.database.photos(of: fixture.item).first?.state == .shared)

        try await PhotoQueue(trips: fixture.database, mediaDirectory: fixture.media, preparer: CopyingPhotoPreparer())
            .remove(id)
        _ = await fixture.uploader().run()
        // Not yet: until the server takes the removal, companions may still be shown the photo.
        #expect(fixture.server.state.withLock { $0.uploads.count } == 2)

        let removal = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        _ = try await fixture.database.settle(removal, answers: removal.ops.map { _ in .applied(revision: 3) })
        #expect(await Self.pending(fixture.database) == 1, "a removal to finish wakes the sync")
        let report = await fixture.uploader().run()

        #expect(report.failure == nil)
        #expect(fixture.server.state.withLock { $0.uploads.count } == 0)
        #expect(try await fixture.database.photos(of: fixture.item).isEmpty)
        #expect(await Self.pending(fixture.database) == 0)
    }

    /// The trips' pending count as the sync controller first reads it.
    static func pending(_ database: TripsDatabase) async -> Int? {
        var counts = database.pendingCount().makeAsyncIterator()
        return await counts.next()
    }

    @Test func anAttachTheServerRefusesIsKeptAndMarkedFailed() async throws {
        // An editor made a viewer between the upload and the attach's send: the ops route
        // answers the attach as refused, like any field op of a viewer.
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, _) = try await fixture.add()
        _ = await fixture.uploader().run()
        let request = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        let reason = "Your role in this trip lets you read it but not change it; ask an owner to make you an editor."

        _ = try await fixture.database.settle(
            request,
            answers: request.ops.map {
                $0.field.hasPrefix(TripWireFields.photoFieldPrefix) ? .rejected(reason: reason) : .applied(revision: 2)
            })
        let photo = try #require(try await fixture.database.photos(of: fixture.item).first)

        #expect(photo.id == id && photo.state == .failed && photo.error == reason)
        #expect(photo.attachment?.photo.upload.count == 32, "the attach stays on the device, shown with the reason")
    }

    @Test func aDownloadIsOpenedCheckedAndCachedAndAChangedByteIsRefused() async throws {
        let fixture = try await Fixture()
        defer { fixture.directory.remove() }
        let (id, bytes) = try await fixture.add()
        _ = await fixture.uploader().run()
        // As a companion's device sees it: the attach, without the sealed files.
        let request = try #require(try await fixture.database.nextRequest(for: fixture.trip, limit: 10))
        _ = try await fixture.database.settle(request, answers: request.ops.map { _ in .applied(revision: 3) })
        let photo = try await fixture.database.photo(id)
        let cache = PhotoCache(directory: fixture.directory.path("cache"))
        let downloader = PhotoDownloader(
            tus: fixture.tus, cache: cache, trips: fixture.database, mediaDirectory: fixture.media, pieceSize: 64_000)
        let upload = try #require(photo.attachment?.photo.upload)
        let original = try #require(fixture.server.bytes(upload))
        fixture.server.state.withLock { state in
            let path = state.uploads.keys.first { $0.hasSuffix(upload) }!
            state.uploads[path]?.bytes[200_000] ^= 0x40
        }

        let steps = QuireLock.Locked<[Int64]>([])
        await #expect(throws: PhotoError.self) { try await downloader.fetch(photo) }
        fixture.server.state.withLock { state in
            let path = state.uploads.keys.first { $0.hasSuffix(upload) }!
            state.uploads[path]?.bytes = original
        }
        let file = try await downloader.fetch(photo) { done, _ in steps.withLock { $0.append(done) } }
        let thumbnail = try await downloader.fetch(photo, thumbnail: true)

        #expect(try Data(contentsOf: file) == bytes)
        #expect(try Data(contentsOf: thumbnail) == bytes.prefix(1000))
        #expect(steps.withLock { $0 }.last == photo.attachment?.photo.sealedSize)
        // Cached: a second fetch asks the server nothing.
        fixture.server.forgetUploads()
        #expect(try await downloader.fetch(photo) == file)
    }

    @Test func theCacheLetsTheLeastRecentlyUsedGoFirst() throws {
        let directory = try TemporaryDirectory(prefix: "quire-photo-cache")
        defer { directory.remove() }
        let cache = PhotoCache(directory: directory.path("cache"), capacity: 2_500)
        try cache.prepare()
        for (index, name) in ["old", "used", "new"].enumerated() {
            try Data(count: 1_000).write(to: cache.file(name))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: Double(index - 10))], ofItemAtPath: cache.file(name).path
            )
        }
        _ = cache.cached("old")  // used last

        cache.evict(keeping: cache.file("new"))

        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).sorted()
        #expect(kept == ["new", "old"])
    }
}
