import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireTestSupport
import Testing

/// A device killed after the server applied its PUT but before it recorded the answer resends the
/// change on its next launch. The in-process twin of that kill: the reply is lost.
@Suite struct LostReplyResendTests {
    @Test(arguments: ["plain", "sealed"])
    func aChangeResentAfterItsReplyWasLostIsAcceptedNotRefused(_ codecName: String) async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let codec: PayloadCodec =
            codecName == "sealed"
            ? SealedPayloadCodec(notesKey: .random(), account: AccountID("crash")) : PlainPayloadCodec()
        let phone = try await cluster.addDevice("phone", codec: codec)
        let id = try await phone.create(title: "Groceries", body: "milk")

        // Given: the server applies the PUT, and the answer never arrives (the process died).
        phone.transport.enqueue(.dropReply)
        #expect(await phone.sync().failure != nil)

        // When: the change is resent, unchanged, with its change id.
        let report = await phone.sync()

        // Then: the server answers as the first time; nothing is refused and the note is synced.
        // The resend carries the payload frozen at the first send: byte-identical, so the server
        // answers with its first answer (a payload sealed again would differ and get 422).
        #expect(report.failure == nil, "\(String(describing: report.failure))")
        #expect(report.refused == 0)
        #expect(try await phone.note(id)?.sync == .synced)
    }
}
