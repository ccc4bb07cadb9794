import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// The upload routes (tus 1.0 with creation, expiration and termination) in process, on both
/// stores: creation, offsets, chunks made durable in order, every refusal as a JSON error with
/// `Tus-Resumable`, other accounts kept out, the quota, expiry and termination.
struct UploadRouteTests {
    @Test func optionsTellsTheProtocolAndLimitsWithoutAToken() async throws {
        let uploads = try await UploadHarness.start()

        let response = await uploads.server.handle(
            HTTPRequest(method: "OPTIONS", path: WireRoutes.tripUploads(uploads.trip)))

        #expect(response.status == 204)
        #expect(response.header("Tus-Version") == "1.0.0")
        #expect(response.header("Tus-Resumable") == "1.0.0")
        #expect(response.header("Tus-Extension") == "creation,expiration,termination")
        #expect(response.header("Tus-Max-Size") == String(64 << 20))
        #expect(response.header(WireRoutes.maxChunkSizeHeader) == String(1 << 20))
    }

    @Test(arguments: StoreKind.allCases)
    func anUploadIsCreatedThenFilledChunkByChunk(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let bytes = SecureRandom.bytes(2_500_000)

        let created = await uploads.create(length: bytes.count, metadata: "kind cGhvdG8=,empty")
        let location = try #require(created.header("Location"))
        let body = try created.decoded(UploadCreatedDTO.self)
        let fresh = await uploads.head(location)
        try await uploads.send(location, bytes, chunk: 1 << 20)
        let done = await uploads.head(location)

        #expect(created.status == 201)
        #expect(location.hasPrefix(WireRoutes.tripUploads(uploads.trip) + "/"))
        #expect(body.location == location && body.length == Int64(bytes.count) && body.expiresAt != nil)
        #expect(created.header("Upload-Expires")?.hasSuffix(" GMT") == true)
        #expect(created.header("Tus-Resumable") == "1.0.0")
        #expect(fresh.status == 200)
        #expect(fresh.header("Upload-Offset") == "0")
        #expect(fresh.header("Upload-Length") == String(bytes.count))
        #expect(fresh.header("Upload-Metadata") == "kind cGhvdG8=,empty")
        #expect(fresh.header("Cache-Control") == "no-store")
        #expect(fresh.body.isEmpty)
        #expect(done.header("Upload-Offset") == String(bytes.count))
        // Complete: no longer expires.
        #expect(done.header("Upload-Expires") == nil)
        #expect(uploads.blob(location).map(SHA256Digest.hex) == SHA256Digest.hex(bytes))
    }

    @Test func eachPatchAnswersTheNewOffsetAndWhenTheUnfinishedUploadExpires() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 10)

        uploads.harness.clock.advance(by: 600)
        let first = await uploads.patch(location, offset: 0, Data("01234".utf8))
        let last = await uploads.patch(location, offset: 5, Data("56789".utf8))

        #expect(first.status == 204)
        #expect(first.header("Upload-Offset") == "5")
        // The expiry runs from the last chunk: an hour after it.
        #expect(first.header("Upload-Expires") == RequestValidation.httpDate(uploads.harness.clock.now + 3600))
        #expect(last.header("Upload-Offset") == "10" && last.header("Upload-Expires") == nil)
        #expect(uploads.blob(location) == Data("0123456789".utf8))
    }

    @Test func anEmptyUploadIsCompleteAtOnce() async throws {
        let uploads = try await UploadHarness.start()

        let created = await uploads.create(length: 0)
        let location = try #require(created.header("Location"))
        let head = await uploads.head(location)

        #expect(created.status == 201 && created.header("Upload-Expires") == nil)
        #expect(head.header("Upload-Offset") == "0" && head.header("Upload-Length") == "0")
        #expect(uploads.blob(location) == Data())
    }

    // MARK: - Refusals

    @Test(arguments: StoreKind.allCases)
    func aPatchAtTheWrongOffsetIs409WithTheOffsetAndStoresNothing(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let location = try await uploads.newUpload(length: 100)
        try await uploads.send(location, Data(repeating: 1, count: 40), chunk: 40)

        let behind = await uploads.patch(location, offset: 0, Data(repeating: 2, count: 10))
        let ahead = await uploads.patch(location, offset: 50, Data(repeating: 2, count: 10))

        for response in [behind, ahead] {
            #expect(response.status == 409)
            #expect(response.errorCode == "offset_mismatch")
            #expect(response.header("Upload-Offset") == "40")
            #expect(response.header("Tus-Resumable") == "1.0.0")
        }
        #expect(uploads.blob(location) == Data(repeating: 1, count: 40))
    }

    @Test func aPatchOfAnotherContentTypeIs415() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 10)

        let response = await uploads.patch(location, offset: 0, Data("abc".utf8), contentType: "application/json")
        let head = await uploads.head(location)

        #expect(response.status == 415 && response.errorCode == "unsupported_media_type")
        #expect(head.header("Upload-Offset") == "0")
    }

    @Test func aRequestWithoutTusResumableIs412WithTheVersion() async throws {
        let uploads = try await UploadHarness.start()

        let response = await uploads.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripUploads(uploads.trip),
                headers: ["Authorization": "Bearer \(uploads.alice)", "Upload-Length": "5"]))

        #expect(response.status == 412)
        #expect(response.errorCode == "tus_version_unsupported")
        #expect(response.header("Tus-Version") == "1.0.0")
    }

    @Test func bytesPastTheLengthAreRefusedAndNothingIsStored() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 8)

        let response = await uploads.patch(location, offset: 0, Data(repeating: 3, count: 9))
        let head = await uploads.head(location)

        #expect(response.status == 413 && response.errorCode == "beyond_upload_length")
        #expect(head.header("Upload-Offset") == "0")
        #expect(uploads.blob(location) == nil)
    }

    @Test func aPatchBodyLargerThanAChunkIs413() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 3 << 20)

        let response = await uploads.patch(location, offset: 0, Data(repeating: 0, count: (1 << 20) + 1))

        #expect(response.status == 413)
        #expect(response.errorCode == "payload_too_large")
        #expect(response.text.contains("several PATCHes"))
    }

    @Test func anUploadLargerThanTheServerTakesIsRefusedAtCreation() async throws {
        let uploads = try await UploadHarness.start()

        let tooLarge = await uploads.create(length: (64 << 20) + 1)

        #expect(tooLarge.status == 413 && tooLarge.errorCode == "upload_too_large")
    }

    @Test(arguments: [
        ["Upload-Length": "-1"], ["Upload-Length": "ten"], ["Upload-Length": "1e3"], [:],
        ["Upload-Length": "10", "Upload-Defer-Length": "1"],
        ["Upload-Length": "10", "Upload-Metadata": "bad key c2Vl"],
        ["Upload-Length": "10", "Upload-Metadata": "name not-base64!"],
        ["Upload-Length": "10", "Upload-Metadata": "a YQ==,a Yg=="],
        ["Upload-Length": "10", "Upload-Metadata": " ,"],
    ])
    func aBadCreationHeaderIs400(headers: [String: String]) async throws {
        let uploads = try await UploadHarness.start()

        let response = await uploads.tus(
            "POST", WireRoutes.tripUploads(uploads.trip), token: uploads.alice, headers: headers)

        #expect(response.status == 400)
        #expect(["invalid_upload_length", "invalid_upload_metadata"].contains(response.errorCode))
    }

    @Test func aCreationWithABodyIs400() async throws {
        let uploads = try await UploadHarness.start()

        let response = await uploads.tus(
            "POST", WireRoutes.tripUploads(uploads.trip), token: uploads.alice,
            headers: ["Upload-Length": "3", "Content-Type": WireRoutes.uploadContentType], body: Data("abc".utf8))

        #expect(response.status == 400)
    }

    @Test func everyRefusalIsAJSONErrorWithTusResumable() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 10)

        let anonymous = await uploads.tus("HEAD", location, token: nil)
        let wrongMethod = await uploads.tus("PUT", location, token: uploads.alice)
        let notAnID = await uploads.head(WireRoutes.tripUpload(uploads.trip, "NOT-AN-UPLOAD"))
        let badTrip = await uploads.head(WireRoutes.tripUpload("not-a-trip", UploadHarness.id(location)))

        #expect(anonymous.status == 401 && anonymous.errorCode == "unauthorized")
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, HEAD, PATCH, DELETE, OPTIONS")
        #expect(notAnID.status == 404)
        #expect(badTrip.status == 400 && badTrip.errorCode == "invalid_trip_id")
        for response in [anonymous, wrongMethod, notAnID, badTrip] {
            #expect(response.header("Tus-Resumable") == "1.0.0")
            #expect(response.header("Content-Type") == "application/json")
        }
    }

    @Test func withoutABlobDirectoryUploadsAre501() async throws {
        let harness = try ServerHarness()
        let alice = try await harness.token("alice")
        let trip = try await harness.newTrip(token: alice)

        let response = await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripUploads(trip),
                headers: ["Authorization": "Bearer \(alice)", "Tus-Resumable": "1.0.0", "Upload-Length": "3"]))

        #expect(response.status == 501)
    }

    // MARK: - Accounts and trips

    @Test(arguments: StoreKind.allCases)
    func anotherAccountCannotHeadPatchOrDeleteAnUpload(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let location = try await uploads.newUpload(length: 10)
        try await uploads.send(location, Data("12345".utf8), chunk: 5)
        let mallory = try await uploads.harness.token("mallory")
        let malloryTrip = try await uploads.harness.newTrip(token: mallory)

        let head = await uploads.head(location, token: mallory)
        let patch = await uploads.patch(location, offset: 5, Data("xxxxx".utf8), token: mallory)
        let delete = await uploads.delete(location, token: mallory)
        let create = await uploads.create(length: 5, token: mallory)
        // Through a trip of her own, the id is still not hers.
        let throughHerTrip = await uploads.head(
            WireRoutes.tripUpload(malloryTrip, UploadHarness.id(location)), token: mallory)
        let after = await uploads.head(location)

        for response in [head, patch, delete, create, throughHerTrip] {
            #expect(response.status == 404)
            #expect(response.errorCode == "not_found")
        }
        #expect(after.header("Upload-Offset") == "5")
        #expect(uploads.blob(location) == Data("12345".utf8))
    }

    @Test func anUploadIsFoundOnlyUnderItsOwnTrip() async throws {
        let uploads = try await UploadHarness.start()
        let location = try await uploads.newUpload(length: 10)
        let otherTrip = try await uploads.harness.newTrip(token: uploads.alice)

        let elsewhere = await uploads.head(WireRoutes.tripUpload(otherTrip, UploadHarness.id(location)))

        #expect(elsewhere.status == 404)
    }

    @Test(arguments: StoreKind.allCases)
    func aViewerCannotUploadAndAnEditorsUploadIsTheirsAlone(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let viewer = try await uploads.harness.token("vera")
        let editor = try await uploads.harness.token("eddie")
        try await uploads.harness.addMember(uploads.trip, username: "vera", role: .viewer)
        try await uploads.harness.addMember(uploads.trip, username: "eddie", role: .editor)

        let refused = await uploads.create(length: 5, token: viewer)
        let location = try await uploads.newUpload(length: 5, token: editor)
        let ownersLook = await uploads.head(location)
        let editorsLook = await uploads.head(location, token: editor)

        #expect(refused.status == 403 && refused.errorCode == "forbidden")
        #expect(ownersLook.status == 404)
        #expect(editorsLook.status == 200)
    }

    // MARK: - Quota, expiry, termination

    @Test(arguments: StoreKind.allCases)
    func theAccountsUploadsStayWithinItsQuota(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store) { $0.accountQuotaBytes = 1000 }
        let first = try await uploads.newUpload(length: 600)

        let second = await uploads.create(length: 401)
        let fits = await uploads.create(length: 400)
        let deleted = await uploads.delete(first)
        let again = await uploads.create(length: 600)

        #expect(second.status == 403 && second.errorCode == "quota_exceeded")
        #expect(second.header("Tus-Resumable") == "1.0.0")
        #expect(fits.status == 201)
        #expect(deleted.status == 204)
        #expect(again.status == 201)
    }

    @Test(arguments: StoreKind.allCases)
    func anUnfinishedUploadExpiresAndTheBackgroundWorkRemovesIt(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let stale = try await uploads.newUpload(length: 10)
        try await uploads.send(stale, Data("abc".utf8), chunk: 3)
        let finished = try await uploads.newUpload(length: 3)
        try await uploads.send(finished, Data("xyz".utf8), chunk: 3)
        let busy = try await uploads.newUpload(length: 10)

        uploads.harness.clock.advance(by: 3000)
        var token = try await uploads.harness.token("alice")
        try await uploads.send(busy, Data("12".utf8), chunk: 2, token: token)
        uploads.harness.clock.advance(by: 700)
        token = try await uploads.harness.token("alice")
        let expired = await uploads.head(stale, token: token)
        let patchExpired = await uploads.patch(stale, offset: 3, Data("d".utf8), token: token)
        let report = try #require(try await uploads.server.runBackgroundWork(olderThan: uploads.harness.clock.now))
        let gone = await uploads.head(stale, token: token)

        #expect(expired.status == 410)
        #expect(patchExpired.status == 410 && patchExpired.errorCode == "upload_expired")
        #expect(report.uploads == 1)
        #expect(gone.status == 404)
        #expect(uploads.blob(stale) == nil)
        // Complete uploads never expire; a recent PATCH moved the other's expiry.
        #expect(await uploads.head(finished, token: token).header("Upload-Offset") == "3")
        #expect(await uploads.head(busy, token: token).header("Upload-Offset") == "2")
        #expect(uploads.blob(finished) == Data("xyz".utf8))
    }

    @Test func expiredUploadsGoInBoundedBatches() async throws {
        let uploads = try await UploadHarness.start()
        var locations: [String] = []
        for _ in 0..<7 {
            let location = try await uploads.newUpload(length: 4)
            try await uploads.send(location, Data("ab".utf8), chunk: 2)
            locations.append(location)
        }
        uploads.harness.clock.advance(by: 3601)

        let removed = try await uploads.server.removeExpiredUploads(limit: 3)

        #expect(removed == 7)
        for location in locations { #expect(uploads.blob(location) == nil) }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteTerminatesAnUploadAndRemovesItsBytes(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let location = try await uploads.newUpload(length: 10)
        try await uploads.send(location, Data("12345".utf8), chunk: 5)

        let deleted = await uploads.delete(location)
        let head = await uploads.head(location)
        let patch = await uploads.patch(location, offset: 5, Data("6".utf8))
        let twice = await uploads.delete(location)

        #expect(deleted.status == 204 && deleted.header("Tus-Resumable") == "1.0.0")
        #expect(head.status == 404 && patch.status == 404 && twice.status == 404)
        #expect(uploads.blob(location) == nil)
    }

    // MARK: - Concurrency

    @Test(arguments: StoreKind.allCases)
    func ofConcurrentPatchesAtOneOffsetOneIsStored(store: StoreKind) async throws {
        let uploads = try await UploadHarness.start(store)
        let location = try await uploads.newUpload(length: 400_000)
        let bytes = SecureRandom.bytes(200_000)

        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { await uploads.patch(location, offset: 0, bytes).status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let head = await uploads.head(location)

        #expect(statuses.filter { $0 == 204 }.count == 1)
        #expect(statuses.allSatisfy { [204, 409, 423].contains($0) })
        #expect(head.header("Upload-Offset") == "200000")
        #expect(uploads.blob(location) == bytes)
    }

    // MARK: - The document and the labels

    @Test(arguments: [
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/uploads", "/v1/trips/{id}/uploads"),
        (
            "/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/uploads/0123456789abcdef0123456789abcdef",
            "/v1/trips/{id}/uploads/{upload}"
        ),
        ("/v1/trips/8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a/uploads/x/y", "other"),
    ])
    func uploadPathsMapToTheirTemplate(path: String, template: String) {
        #expect(ServerMetrics.routeTemplate(for: path) == template)
    }

    @Test func theDocumentDescribesTheUploadRoutes() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        let collection = try #require(paths["/v1/trips/{id}/uploads"] as? [String: Any])
        let item = try #require(paths["/v1/trips/{id}/uploads/{upload}"] as? [String: Any])

        #expect(Set(collection.keys) == ["post", "options"])
        #expect(Set(item.keys) == ["get", "head", "patch", "delete", "options"])
        let patch = try #require(item["patch"] as? [String: Any])
        let responses = try #require(patch["responses"] as? [String: Any])
        #expect(Set(responses.keys).isSuperset(of: ["204", "401", "404", "409", "410", "412", "413", "415", "423"]))
    }
}
