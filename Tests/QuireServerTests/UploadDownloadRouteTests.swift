import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// The download route of the uploads (issue 16, part 5) in process, on both stores: any member of
/// the trip fetches a complete upload with `Range`, resumably and in bounded parts; everyone else,
/// and an unfinished upload, gets the 404 an upload that does not exist gets.
struct UploadDownloadRouteTests {
    /// A GET of the upload at `path`, with `range` as the `Range` header when given.
    private func get(_ uploads: UploadHarness, _ path: String, range: String? = nil, token: String? = nil) async
        -> HTTPResponse
    {
        var headers = ["Authorization": "Bearer \(token ?? uploads.alice)"]
        if let range { headers["Range"] = range }
        return await uploads.server.handle(HTTPRequest(method: "GET", path: path, headers: headers))
    }

    /// A complete upload of `bytes` (in PATCHes of 64 KiB) and its path.
    private func complete(_ uploads: UploadHarness, _ bytes: Data, token: String? = nil) async throws -> String {
        let location = try await uploads.newUpload(length: bytes.count, token: token)
        try await uploads.send(location, bytes, chunk: 64 * 1024, token: token)
        return location
    }

    @Test(arguments: StoreKind.allCases)
    func aViewerDownloadsAnEditorsUploadByRangesWithoutATusHeader(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let viewer = try await uploads.harness.token("vera")
        try await uploads.harness.addMember(uploads.trip, username: "vera", role: .viewer)
        let bytes = SecureRandom.bytes(300_000)
        let location = try await complete(uploads, bytes)

        let first = await get(uploads, location, range: "bytes=0-99999", token: viewer)
        let rest = await get(uploads, location, range: "bytes=100000-", token: viewer)
        let tail = await get(uploads, location, range: "bytes=-10", token: viewer)
        let whole = await get(uploads, location, token: viewer)

        #expect(first.status == 206)
        #expect(first.header("Content-Range") == "bytes 0-99999/300000")
        #expect(first.header("Accept-Ranges") == "bytes")
        #expect(first.header("Content-Type") == "application/octet-stream")
        #expect(rest.status == 206 && rest.header("Content-Range") == "bytes 100000-299999/300000")
        #expect(first.body + rest.body == bytes)
        #expect(tail.body == bytes.suffix(10))
        #expect(whole.status == 200 && whole.body == bytes)
    }

    @Test(arguments: StoreKind.allCases)
    func aLongRangeIsAnsweredWithItsFirstPartAndNamedSo(store: StoreKind) async throws {
        // The harness's PATCH and GET limit is 1 MiB.
        let uploads = try await UploadHarness.start(store)
        let bytes = SecureRandom.bytes(1_500_000)
        let location = try await complete(uploads, bytes)

        let long = await get(uploads, location, range: "bytes=0-")
        let unbounded = await get(uploads, location)

        #expect(long.status == 206)
        #expect(long.header("Content-Range") == "bytes 0-\((1 << 20) - 1)/1500000")
        #expect(long.body == bytes.prefix(1 << 20))
        #expect(unbounded.status == 400 && unbounded.errorCode == "range_required")
    }

    @Test(arguments: StoreKind.allCases)
    func outsidersOtherTripsAndUnfinishedUploadsAreNotFound(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let location = try await complete(uploads, Data("0123456789".utf8))
        let unfinished = try await uploads.newUpload(length: 10)
        try await uploads.send(unfinished, Data("01234".utf8), chunk: 5)
        let mallory = try await uploads.harness.token("mallory")
        let malloryTrip = try await uploads.harness.newTrip(token: mallory)
        let otherTrip = try await uploads.harness.newTrip(token: uploads.alice)
        let id = UploadHarness.id(location)

        let outsider = await get(uploads, location, range: "bytes=0-4", token: mallory)
        let throughHerTrip = await get(uploads, WireRoutes.tripUpload(malloryTrip, id), token: mallory)
        let underAnotherTrip = await get(uploads, WireRoutes.tripUpload(otherTrip, id))
        let notYet = await get(uploads, unfinished, range: "bytes=0-4")

        for response in [outsider, throughHerTrip, underAnotherTrip, notYet] {
            #expect(response.status == 404)
            #expect(response.errorCode == "not_found")
            #expect(!response.body.contains(Data("0123".utf8)))
        }
    }

    @Test(arguments: [
        ("bytes=10-", 416, "range_not_satisfiable"), ("bytes=0-1,4-5", 400, "invalid_range"),
        ("items=0-1", 400, "invalid_range"), ("bytes=x-1", 400, "invalid_range"), ("bytes=-", 400, "invalid_range"),
    ])
    func aRangeItCannotAnswerIsAClearError(range: String, status: Int, code: String) async throws {
        let uploads = try await UploadHarness.start()
        let location = try await complete(uploads, Data("0123456789".utf8))

        let response = await get(uploads, location, range: range)

        #expect(response.status == status)
        #expect(response.errorCode == code)
        if status == 416 { #expect(response.header("Content-Range") == "bytes */10") }
    }

    /// A range of the right form that names no bytes is ignored (RFC 9110 §14.2): the whole
    /// upload, 200. Schemathesis' stateful phase found the 400 these got before
    /// (`bytes=05803214109509-8606`, a valid header by the API document).
    @Test(arguments: ["bytes=5-2", "bytes=-0", "bytes=05803214109509-8606", "bytes=99999999999999999999-"])
    func aRangeThatNamesNoBytesIsIgnored(range: String) async throws {
        let uploads = try await UploadHarness.start()
        let location = try await complete(uploads, Data("0123456789".utf8))

        let response = await get(uploads, location, range: range)

        #expect(response.status == 200, "\(response.text)")
        #expect(response.body == Data("0123456789".utf8))
    }

    /// An empty upload has no byte a range could name: any valid `Range` is answered with the
    /// whole (empty) upload, 200, as RFC 9110 lets a server ignore `Range` (schemathesis' ST202
    /// found the 416 it answered before).
    @Test func anEmptyUploadAnswersARangeWhole() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 0)

        let response = await get(uploads, location, range: "bytes=0-")

        #expect(response.status == 200, "\(response.text)")
        #expect(response.body.isEmpty && response.header("Content-Range") == nil)
    }

    @Test func aBlobShorterThanItsConfirmedLengthIsReportedNotAnsweredAsARange() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await complete(uploads, SecureRandom.bytes(1000))
        let id = UploadHarness.id(location)
        let file = uploads.blobs.appendingPathComponent(String(id.prefix(2))).appendingPathComponent(id)
        try Data(try Data(contentsOf: file).prefix(600)).write(to: file)

        let cut = await get(uploads, location, range: "bytes=0-999")
        let past = await get(uploads, location, range: "bytes=700-999")

        #expect(cut.status == 206 && cut.header("Content-Range") == "bytes 0-599/1000" && cut.body.count == 600)
        #expect(past.status == 500 && past.errorCode == "blob_damaged")
    }

    @Test(arguments: StoreKind.allCases)
    func aPhotoFieldIsAnItemFieldTheOpsRouteTakes(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let item = UUID().uuidString.lowercased()
        let photo = TripWireFields.photoField(UUID().uuidString.lowercased())

        let taken = await uploads.harness.opsResponse(
            uploads.trip, [TripValue.op(item, "title", "Lunch"), TripValue.op(item, photo, "{...}")],
            token: uploads.alice)
        let notOnTheTrip = await uploads.harness.opsResponse(
            uploads.trip, [TripValue.op(nil, photo, "{...}")], token: uploads.alice)
        let malformed = await uploads.harness.opsResponse(
            uploads.trip, [TripValue.op(item, "photo.NOT-A-UUID", "{...}")], token: uploads.alice)

        #expect(taken.status == 200, "\(taken.text)")
        #expect(notOnTheTrip.status == 400 && notOnTheTrip.text.contains("must be a field of the trip"))
        #expect(malformed.status == 400 && malformed.text.contains("photo.<lowercase uuid>"))
    }
}
