import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireTestSupport
import QuireWire
import Testing

/// The engine against a transport that loses requests, loses replies, repeats them and fails.
@Suite struct EngineFaultTests {
    /// Every change id the server stored an answer for, and each note's version, read from the feed.
    private func serverVersions(_ cluster: SyncCluster) async throws -> [String: Int] {
        let api = NotesAPIClient(
            transport: InProcessTransport(server: cluster.server),
            tokens: StaticTokenProvider(token: cluster.token))
        var versions: [String: Int] = [:]
        var cursor: Cursor?
        while true {
            let page = try await api.changes(since: cursor, limit: 500, wait: 0)
            for change in page.changes { versions[change.id] = change.version }
            cursor = Cursor(page.nextCursor)
            if !page.hasMore { break }
        }
        return versions
    }

    @Test func aResendAfterALostReplyIsAnsweredNotAppliedAgain() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Once", body: "only once")

        phone.transport.enqueue(.dropReply)
        let lost = await phone.sync()
        #expect(!lost.succeeded)
        #expect(try await phone.note(id)?.sync == .pending(changes: 1))

        let retried = await phone.sync()
        #expect(retried.succeeded)
        #expect(retried.conflictCopies == 0)
        // Answered, not refused: the resend carried the same sealed bytes as the first send.
        #expect(retried.refused == 0)
        #expect(try await phone.note(id)?.sync == .synced)
        // The server applied the PUT once: the note is at version 1, not 2.
        #expect(try await serverVersions(cluster)[id.description] == 1)
        let puts = phone.transport.delivered.filter { $0.hasPrefix("PUT") }
        #expect(puts.count == 2)
        #expect(puts[0] == puts[1])

        await laptop.sync()
        #expect(await laptop.all().count == 1)
    }

    @Test func aDuplicatedRequestIsAppliedOnce() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let id = try await phone.create(title: "Dup", body: "x")
        await phone.sync()
        try await phone.edit(id, body: "y")
        phone.transport.enqueue(.duplicate)
        let report = await phone.sync()
        #expect(report.succeeded)
        #expect(report.conflictCopies == 0)
        #expect(try await serverVersions(cluster)[id.description] == 2)
        #expect(await phone.all().count == 1)
    }

    @Test func aServerErrorKeepsTheChangeQueuedAndTheNotesVisible() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let id = try await phone.create(title: "Kept", body: "text")

        phone.transport.enqueue(.status(500))
        let failed = await phone.sync()
        #expect(failed.failure?.kind == .transient)
        let status = try await phone.database.runRecord()
        #expect(status.lastRunFailed)
        #expect(status.lastSyncedAt == nil)
        // Promise 5: a failed sync never looks like "no notes".
        #expect(try await phone.note(id)?.body == "text")
        #expect(try await phone.note(id)?.sync == .pending(changes: 1))

        let recovered = await phone.sync()
        #expect(recovered.succeeded)
        #expect(try await phone.database.runRecord().lastRunFailed == false)
        #expect(try await phone.note(id)?.sync == .synced)
    }

    @Test func offlineFailsAsUnreachableAndLosesNothing() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        phone.transport.setPersistent(.unreachable)
        let id = try await phone.create(title: "Offline", body: "typed on the train")
        let report = await phone.sync()
        #expect(report.failure?.kind == .unreachable)
        #expect(try await phone.note(id)?.body == "typed on the train")
        phone.transport.setPersistent(nil)
        #expect(await phone.sync().succeeded)
        #expect(try await serverVersions(cluster)[id.description] == 1)
    }

    @Test func aRefusedChangeKeepsItsTextAndDoesNotBlockOthers() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let refused = try await phone.create(title: "Too big", body: "imagine 5 MB here")
        let fine = try await phone.create(title: "Fine", body: "small")

        // The batch of both is refused as a whole, then the big one alone: the other still goes.
        phone.transport.enqueue(.status(413), .status(413))
        let report = await phone.sync()
        #expect(report.refused == 1)
        #expect(report.succeeded)
        #expect(try await phone.note(refused)?.sync == .refused)
        #expect(try await phone.note(refused)?.body == "imagine 5 MB here")
        #expect(try await phone.note(fine)?.sync == .synced)

        // Editing the refused note tries again.
        try await phone.edit(refused, body: "smaller now")
        #expect(await phone.sync().pushed == 1)
        #expect(try await phone.note(refused)?.sync == .synced)
    }

    @Test func anExpiredCursorResyncsInFullAndKeepsPendingChanges() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let kept = try await phone.create(title: "Kept", body: "a")
        let gone = try await phone.create(title: "Gone", body: "b")
        await phone.sync()
        await laptop.sync()
        try await laptop.delete(gone)
        await laptop.sync()

        // The phone edits offline; its next pull is told its cursor expired.
        try await phone.edit(kept, body: "a, edited offline")
        phone.transport.enqueue(nil, .status(410))  // the PUT goes through; the GET gets 410
        let report = await phone.sync()
        #expect(report.succeeded)
        #expect(report.fullResync)
        #expect(try await phone.note(gone) == nil)
        #expect(try await phone.note(kept)?.body == "a, edited offline")
        await laptop.sync()
        #expect(try await laptop.note(kept)?.body == "a, edited offline")
    }

    @Test func pagesArriveInFullWithASmallPageLimit() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop", pageLimit: 3)
        for index in 0..<10 { try await phone.create(title: "n\(index)", body: "\(index)") }
        await phone.sync()
        let progress = ProgressLog()
        await laptop.engine.onProgress { progress.append($0) }
        let report = await laptop.sync()
        #expect(report.received == 10)
        #expect(await laptop.all().count == 10)
        let receiving = progress.values.filter { $0.phase == .receiving }
        #expect(receiving.map(\.done) == [3, 6, 9, 10])
        // Every page says how many changes are left, so each report has the whole total.
        #expect(receiving.map(\.total) == [10, 10, 10, 10])
        #expect(receiving.last?.finished == true)
    }

    @Test func pushingReportsHowManyOfThePendingNotesWereSent() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone", batchLimit: 4)
        for index in 0..<10 { try await phone.create(title: "n\(index)", body: "\(index)") }
        let progress = ProgressLog()
        await phone.engine.onProgress { progress.append($0) }

        let report = await phone.sync()

        #expect(report.pushed == 10)
        let sending = progress.values.filter { $0.phase == .sending }
        #expect(sending.map(\.done) == [4, 8, 10])
        #expect(sending.map(\.total) == [10, 10, 10])
        #expect(sending.last?.finished == true)
    }
}

/// Collects progress reports from the engine's handler.
final class ProgressLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var log: [SyncProgress] = []

    func append(_ progress: SyncProgress) { lock.withLock { log.append(progress) } }
    var values: [SyncProgress] { lock.withLock { log } }
}
