import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// A long first sync that is cut off resumes from the last page it applied, not from the start.
@Suite struct EngineFirstSyncResumeTests {
    @Test func anInterruptedFirstSyncResumesFromItsLastPage() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let notes = 1_000
        for index in 0..<notes { try await phone.create(title: "note \(index)", body: "body \(index)") }
        #expect(await phone.sync().succeeded)

        let tablet = try await cluster.addDevice("tablet", pageLimit: 100)
        let progress = ProgressLog()
        await tablet.engine.onProgress { progress.append($0) }
        // Four pages arrive; the fifth request is lost (the train enters a tunnel).
        tablet.transport.enqueue(nil, nil, nil, nil, .dropRequest)
        let cut = await tablet.sync()
        #expect(!cut.succeeded)
        #expect(cut.received == 400)
        #expect(await tablet.all().count == 400)
        #expect(progress.values.filter { $0.phase == .receiving }.map(\.done) == [100, 200, 300, 400])

        let resumed = await tablet.sync()

        #expect(resumed.succeeded)
        #expect(resumed.received == 600)  // only what was missing
        let gets = tablet.transport.delivered.filter { $0.hasPrefix("GET") }
        #expect(gets.count == 4 + 6)
        #expect(gets[4].contains("since="))  // picked up at the stored cursor
        #expect(await tablet.all().count == notes)
        #expect(await tablet.contents() == phone.contents())
    }
}
