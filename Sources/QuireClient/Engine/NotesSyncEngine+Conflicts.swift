import Foundation
import QuireDomain
import QuireWire

extension NotesSyncEngine {
    // MARK: - Conflicts

    /// Settles a 409. `baseKnown` false (the server's history never had the change's base: a
    /// restore forgot it) means the base text is no ancestor of the server's copy, so the merge
    /// goes without one: equal texts settle, different ones keep this device's as a copy.
    func settle(
        _ change: SentChange, serverCopy: NoteChangeDTO, baseKnown: Bool? = nil,
        report: inout SyncReport
    ) async throws {
        let server: RemoteNote
        do {
            server = try remoteNote(from: serverCopy)
        } catch {
            // Without the server's text there is nothing safe to decide: keep ours, stop sending it.
            report.undecryptable += 1
            try await records.markRefused(
                change.id, reason: "The server's copy of this note could not be decrypted.")
            report.refused += 1
            return
        }
        if let base = change.baseVersion, server.version < base {
            // The server's copy is older than what it acknowledged to this device: it was restored
            // from an older backup. Send this device's state again on top of what it has now.
            try await records.rebaseOnForgetfulServer(change.id, server: server)
            report.reuploaded += 1
            return
        }
        // A save can land between reading the context and settling: read again and decide again.
        for _ in 0..<8 {
            var context = try await records.conflictContext(for: change.id)
            if baseKnown == false { context.base = nil }
            let serverSide: Side = server.content.map { .edited($0.text) } ?? .deleted
            let resolution = policy.resolve(base: context.base, local: context.local, server: serverSide)
            let settlement = Self.settlement(
                for: resolution, change: change, context: context, server: server)
            do {
                try await records.settleConflict(settlement)
            } catch  where NotesDatabaseError.isKind(.staleConflict, error) {
                continue
            }
            switch resolution {
            case .merged: report.merged += 1
            case .keepBoth: report.conflictCopies += 1
            case .recreate, .keepServer: report.editsBeatDeletes += 1
            case .alreadyEqual, .bothDeleted: report.pushed += 1
            }
            return
        }
        throw SyncFailure(kind: .transient, message: "The note kept changing while syncing it.")
    }

    /// Turns the policy's answer into the database write. Pure.
    static func settlement(
        for resolution: ConflictResolution, change: SentChange, context: ConflictContext,
        server: RemoteNote
    ) -> ConflictSettlement {
        var outcome = ConflictSettlement.Outcome.takeServer
        var copy: (id: NoteID, content: NoteContent)?
        switch resolution {
        case .alreadyEqual, .keepServer, .bothDeleted:
            outcome = .takeServer
        case .merged(let text):
            outcome = .push(
                NoteContent(title: text.title, body: text.body, conflictOf: context.conflictOf))
        case .recreate:
            if case .edited(let text) = context.local {
                outcome = .push(
                    NoteContent(title: text.title, body: text.body, conflictOf: context.conflictOf))
            }
        case .keepBoth(let copyText):
            outcome = .takeServer
            copy = (
                NoteID(),
                NoteContent(
                    title: copyText.title, body: copyText.body,
                    conflictOf: context.conflictOf ?? change.noteID)
            )
        }
        return ConflictSettlement(
            change: change.id, server: server, outcome: outcome, copy: copy,
            expectedRevision: context.revision)
    }
}
