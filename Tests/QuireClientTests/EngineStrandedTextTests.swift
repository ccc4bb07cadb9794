import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireTestSupport
import QuireWire
import Testing

/// Issue 9's paths to lost, stale or stuck text, each through the real engine and the real server
/// core: refusals, a change that keeps failing, two processes of one device, a first push whose
/// reply was lost, and a server that lost writes.
@Suite struct EngineStrandedTextTests {
    private func bodyHolds(_ id: NoteID, _ request: TransportRequest) -> Bool {
        request.path.contains(id.description)
            || String(decoding: request.body ?? Data(), as: UTF8.self).contains(id.description)
    }

    // MARK: - Defect 2: too large to send

    @Test func aNoteTooLargeToSendIsRefusedWithoutSendingAndGoesOnceShortened() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone", bodyLimit: 8_192)
        let laptop = try await cluster.addDevice("laptop")
        let big = try await phone.create(title: "Big", body: String(repeating: "word ", count: 4_000))
        let small = try await phone.create(title: "Small", body: "fits")

        let first = await phone.sync()

        #expect(first.refused == 1)
        #expect(first.pushed == 1)
        #expect(!phone.transport.delivered.contains { $0.contains(big.description) })
        let row = try #require(try await phone.database.noteRow(id: big))
        #expect(row.refused)
        #expect(row.syncIssue?.contains("too large to sync") == true)
        #expect(try await phone.database.readStatus().refusedCount == 1)

        try await phone.edit(big, body: "small now")
        let second = await phone.sync()
        #expect(second.pushed == 1)
        #expect(second.refused == 0)
        await laptop.sync()
        #expect(try await laptop.note(big)?.body == "small now")
        #expect(try await laptop.note(small)?.body == "fits")
    }

    /// Many notes that together pass the body limit travel in several batches, never refused.
    @Test func aBatchIsCutToTheBodyLimit() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone", bodyLimit: 16_384)
        for index in 0..<12 {
            try await phone.create(title: "N\(index)", body: String(repeating: "x", count: 2_000))
        }
        let report = await phone.sync()
        #expect(report.succeeded)
        #expect(report.pushed == 12)
        #expect(report.refused == 0)
        #expect(phone.transport.delivered.filter { $0.hasPrefix("POST /v1/notes/batch") }.count > 1)
    }

    // MARK: - Defect 5: one change that keeps failing

    @Test func oneNoteTheServerKeepsFailingDoesNotHoldBackTheOthers() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let clock = ManualDateClock()
        let phone = try await cluster.addDevice("phone", now: { clock.now })
        let laptop = try await cluster.addDevice("laptop")
        let poisoned = try await phone.create(title: "Poisoned", body: "the server fails on this one")
        clock.advance()
        let fine = try await phone.create(title: "Fine", body: "ok")
        clock.advance()
        let alsoFine = try await phone.create(title: "Also fine", body: "ok too")
        phone.transport.always(.status(500)) { [self] in bodyHolds(poisoned, $0) }

        let report = await phone.sync()

        #expect(report.pushed == 2)
        #expect(report.deferred == 1)
        #expect(!report.succeeded)
        await laptop.sync()
        #expect(try await laptop.note(fine) != nil)
        #expect(try await laptop.note(alsoFine) != nil)

        // It keeps failing: after the bound it shows as stuck with the server's error.
        for _ in 0..<(ChangeRetry.stuckAfterAttempts + 2) {
            clock.advance(by: ChangeRetry.maximumDelay + 1)
            await phone.sync()
        }
        let row = try #require(try await phone.database.noteRow(id: poisoned))
        #expect(row.syncIssue?.hasPrefix("Not sent after") == true)
        #expect(try await phone.database.readStatus().stuckCount == 1)

        // Later edits of other notes still go while it waits its turn.
        try await phone.edit(fine, body: "edited while the other is stuck")
        let later = await phone.sync()
        #expect(later.pushed == 1)

        phone.transport.clearRules()
        clock.advance(by: ChangeRetry.maximumDelay + 1)
        let healed = await phone.sync()
        #expect(healed.succeeded)
        await laptop.sync()
        #expect(try await laptop.note(poisoned)?.body == "the server fails on this one")
        #expect(try await phone.database.noteRow(id: poisoned)?.syncIssue == nil)
    }

    // MARK: - Defect 4: two processes of one device

    @Test func twoProcessesOfOneDeviceSyncingAtOnceNeverFail() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let other = try phone.secondProcess(transport: InProcessTransport(server: cluster.server))
        for round in 0..<20 {
            for index in 0..<5 {
                try await phone.create(title: "R\(round)N\(index)", body: "text \(round) \(index)")
            }
            async let first = phone.engine.syncOnce()
            async let second = other.engine.syncOnce()
            let (a, b) = await (first, second)
            #expect(a.succeeded, "round \(round): \(String(describing: a.failure))")
            #expect(b.succeeded, "round \(round): \(String(describing: b.failure))")
            #expect(a.refused + b.refused == 0)
        }
        #expect(try await phone.database.readStatus().pendingCount == 0)
        #expect(await phone.all().count == 100)
    }

    /// A change id the server already holds with other bytes (a second process sealed it again)
    /// is settled against the server's copy: no refusal, no copy, and remote edits still arrive.
    @Test func aReusedChangeIDIsCheckedAgainstTheServerNotRefused() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "T", body: "v1")
        await phone.sync()
        await laptop.sync()
        try await phone.edit(id, body: "v2 from the phone")
        // Another process sent this change with its own seal, and its answer was lost.
        let change = try #require(try await phone.database.nextChange())
        let otherSeal = try phone.codec.seal(
            NoteContent(title: "T", body: "v2 from the phone"), noteID: id)
        _ = try await phone.api.put(id, payload: otherSeal, baseVersion: 1, change: change.id)

        let report = await phone.sync()

        #expect(report.succeeded)
        #expect(report.refused == 0)
        #expect(report.conflictCopies == 0)
        #expect(await phone.all().count == 1)
        await laptop.sync()
        #expect(try await laptop.note(id)?.body == "v2 from the phone")
        try await laptop.edit(id, body: "v3 from the laptop")
        await laptop.sync()
        await phone.sync()
        #expect(try await phone.note(id)?.body == "v3 from the laptop")
    }

    // MARK: - Defect 7: a first push whose reply was lost

    @Test func aNoteDeletedElsewhereAfterAFirstPushWhoseReplyWasLostGoesHereToo() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Short-lived", body: "x")
        phone.transport.enqueue(.dropReply)
        await phone.sync()
        await laptop.sync()
        try await laptop.delete(id)
        await laptop.sync()

        let report = await phone.sync()

        #expect(report.succeeded)
        #expect(try await phone.note(id) == nil)
        #expect(await phone.contents() == (await laptop.contents()))
    }

    /// A pull skips a note with a pending change (the change will meet the server's copy); but a
    /// resend answered from the record of its first send names that older version and meets
    /// nothing. The skipped copy must still arrive (simulation seed 1452).
    @Test func aNewerCopySkippedWhileAResendWasPendingArrivesWhenItIsAnswered() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let clock = ManualDateClock()
        let phone = try await cluster.addDevice("phone", now: { clock.now })
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Draft", body: "text")
        phone.transport.enqueue(.dropReply)
        await phone.sync()  // applied at version 1, the answer lost
        await laptop.sync()
        try await laptop.edit(id, title: "Renamed on the laptop")
        await laptop.sync()  // version 2
        phone.transport.enqueue(.status(500))
        await phone.sync()  // the resend fails; the pull skips version 2 (a change is pending)
        clock.advance(by: ChangeRetry.maximumDelay + 1)

        let report = await phone.sync()  // the resend is answered "version 1"

        #expect(report.succeeded)
        #expect(try await phone.note(id)?.title == "Renamed on the laptop")
        #expect(await phone.contents() == (await laptop.contents()))
    }

    // MARK: - Defect 8: a server restored from an older backup

    @Test func aServerThatLostWritesGetsThemBackFromTheDevices() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let kept = try await phone.create(title: "Kept", body: "before the backup")
        let edited = try await phone.create(title: "Edited", body: "before the backup")
        await phone.sync()
        let backup = cluster.directory.path("backup.sqlite").path
        try await cluster.storage.backUp(to: backup)
        try await phone.edit(edited, body: "edited after the backup")
        let added = try await phone.create(title: "Added", body: "after the backup")
        let gone = try await phone.create(title: "Gone", body: "deleted after the backup")
        await phone.sync()
        try await phone.delete(gone)
        await phone.sync()
        await laptop.sync()

        try await cluster.storage.restore(fromBackupAt: backup)

        let report = await phone.sync()
        #expect(report.succeeded, "\(String(describing: report.failure))")
        #expect(report.fullResync)
        await laptop.sync()
        await phone.sync()
        let third = try await cluster.addDevice("tablet")
        await third.sync()
        for device in [phone, laptop, third] {
            #expect(try await device.note(kept)?.body == "before the backup")
            #expect(try await device.note(edited)?.body == "edited after the backup")
            #expect(try await device.note(added)?.body == "after the backup")
            #expect(try await device.note(gone) == nil)
            #expect(await device.all().count == 3)
        }
        #expect(try await phone.database.readStatus().notice?.contains("lost") == true)
    }

    /// The device's cursor names a position the restored server still has (its last pull came
    /// before the backup), but the server acknowledged a write of this device after the backup:
    /// the cursor alone cannot tell the server forgot it. The position of the newest acknowledged
    /// write goes with every pull (seeds 4726 and 5293: acknowledged text never reached the
    /// other devices).
    @Test func aWriteAcknowledgedAfterTheBackupIsSentAgainWhenTheCursorIsFromBeforeIt() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        _ = try await phone.create(title: "Before", body: "before the backup")
        await phone.sync()
        // The laptop writes in between, so the phone's next push cannot move its cursor by itself.
        _ = try await laptop.create(title: "Laptop", body: "the laptop's")
        await laptop.sync()
        let backup = cluster.directory.path("backup.sqlite").path
        try await cluster.storage.backUp(to: backup)
        let after = try await phone.create(title: "After", body: "acknowledged after the backup")
        phone.transport.always(.dropRequest) { $0.path.hasPrefix(WireRoutes.changes) }
        let acknowledged = await phone.sync()
        #expect(acknowledged.pushed == 1)
        #expect(!acknowledged.succeeded)
        phone.transport.clearRules()

        try await cluster.storage.restore(fromBackupAt: backup)

        let report = await phone.sync()
        #expect(report.succeeded, "\(String(describing: report.failure))")
        #expect(report.fullResync)
        #expect(report.reuploaded == 1)
        await laptop.sync()
        #expect(try await laptop.note(after)?.body == "acknowledged after the backup")
        #expect(await phone.contents() == (await laptop.contents()))
    }
}
