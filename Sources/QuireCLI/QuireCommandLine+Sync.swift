import Foundation
import QuireClient
import QuireDomain
import QuirePresentation

// MARK: - sync, status

extension QuireCommandLine {
    func sync(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        guard let deviceSync = try device.makeDeviceSync() else {
            throw CLIError(
                code: .config,
                message: "not signed in to a server; run: quire login URL USER (or quire register URL USER)")
        }
        let json = arguments.flag("json")
        let showsLine = console.stderrIsTerminal && !json
        if showsLine || (json && arguments.flag("progress")), let notes = deviceSync.parts.first as? NotesSyncPart {
            let console = self.console
            await notes.engine.onProgress { progress in
                if showsLine {
                    console.progress(progress.finished ? nil : ProgressLine.text(for: progress))
                } else {
                    console.errJSONLine(ProgressEvent(progress))
                }
            }
        }
        let run = SyncRunSummary(await deviceSync.syncEachPart())
        if showsLine { console.progress(nil) }
        if arguments.flag("json") {
            try console.json(run)
        } else {
            console.out(run.text)
        }
        for removal in run.total.tripsRemoved { console.err("quire: warning: \(removal.warning)") }
        let report = run.total
        let status = await currentStatus(device)
        guard let failure = report.failure else {
            // Synced, but some text is not on the server: say which and what to do; exit 75.
            if status.tripRejectedCount > 0, status.refusedCount + status.stuckCount == 0 {
                throw CLIError(
                    code: .tempFail,
                    message: "\(status.tripRejectedCount) trip change(s) were refused by the server: "
                        + "'quire trip show TRIP' says why; editing the field sends it again, and "
                        + "'quire trip resolve ITEM --field F --keep theirs' lets it go.")
            }
            let refusedPhotos = try await device.trips.photoUploadSummary().failed
            if refusedPhotos > 0, status.refusedCount + status.stuckCount == 0 {
                throw CLIError(
                    code: .tempFail,
                    message: "\(refusedPhotos) photo(s) were refused by the server: 'quire trip photos ITEM' says why; "
                        + "remove them with 'quire trip photo rm PHOTO'.")
            }
            guard status.refusedCount + status.stuckCount > 0 else { return }
            throw CLIError(
                code: .tempFail,
                message: "\(status.refusedCount + status.stuckCount) note(s) did not sync: "
                    + "see 'quire ls' for why. A refused note is sent again after you edit it; "
                    + "a stuck one is retried by the next sync.")
        }
        let kept = status.pendingCount > 0 ? " \(status.pendingCount) change(s) stay queued." : ""
        if [.unreachable, .transient].contains(failure.kind), let session = try device.credentials.load(),
            let explained = await explainServer(
                at: session.serverURL, trust: session.trust, raw: failure.message, signedIn: true)
        {
            throw CLIError(code: explained.code, message: "sync failed: \(explained.message).\(kept)", hint: "")
        }
        let message = verbose ? failure.message : Self.withoutRawCodes(failure.message)
        throw CLIError(code: Self.exitCode(for: failure.kind), message: "sync failed: \(message)\(kept)")
    }

    func status(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        var status = await currentStatus(device)
        let session = try device.credentials.load()
        // Tokens gone (signed out on this device) is "Signed out" too, not only a refused sync.
        if let session, !session.isSignedIn { status.isSignedOut = true }
        let label = SyncStatusLabel.text(for: status, syncConfigured: session != nil)
        let photos = try await device.trips.photoUploadSummary()
        if arguments.flag("json") {
            try console.json(StatusJSON(status: status, label: label, photos: photos))
            return
        }
        console.out("Status:       \(label)")
        if let session {
            console.out("Server:       \(session.serverURL.absoluteString)")
            if let caFile = session.trust.caFile { console.out("Trusted CA:   \(caFile)") }
            console.out(
                "Account:      \(session.username)"
                    + (session.isSignedIn
                        ? "" : " (signed out: run quire login \(session.serverURL.absoluteString) \(session.username))")
            )
        } else {
            console.out("Server:       none (this device works offline; quire login URL USER to sync)")
        }
        console.out(
            "Pending:      \(status.pendingCount) change(s) not yet synced"
                + (status.tripPendingCount > 0 ? " (\(status.tripPendingCount) of them trip fields)" : ""))
        if let last = status.lastSyncedAt {
            console.out("Last synced:  \(last.formatted(date: .abbreviated, time: .standard))")
        } else {
            console.out("Last synced:  never")
        }
        if status.lastRunFailed {
            console.out("Last sync:    failed: \(status.lastError ?? "unknown error")")
        }
        if status.conflictCount > 0 {
            console.out("Conflicts:    \(status.conflictCount) copy/copies to resolve (quire conflicts)")
        }
        for line in TripStatusLines.lines(status) + TripStatusLines.lines(photos) { console.out(line) }
        if status.refusedCount > 0 {
            console.out(
                "Refused:      \(status.refusedCount) note(s) the server will not take (quire ls says why; edit to send again)"
            )
        }
        if status.stuckCount > 0 {
            console.out(
                "Stuck:        \(status.stuckCount) change(s) keep failing to send (quire ls says why; still retried)")
        }
        if let notice = status.notice {
            console.out("Notice:       \(notice)")
        }
        if status.undecryptableCount > 0 {
            console.out("Unreadable:   \(status.undecryptableCount) note(s) could not be decrypted")
        }
        guard arguments.flag("verbose") else { return }
        if let oldest = status.oldestPendingSince {
            let age = Int(Date().timeIntervalSince(oldest))
            console.out("Oldest change waiting: \(age) s")
        }
        let metrics = try await device.database.runRecord().metrics
        let median = metrics.medianAckLatency.map { String(format: "%.0f ms", $0 * 1000) } ?? "n/a"
        let p99 = metrics.p99AckLatency.map { String(format: "%.0f ms", $0 * 1000) } ?? "n/a"
        console.out("Syncs:        \(metrics.runs) (\(metrics.failedRuns) failed, \(metrics.fullResyncs) full resyncs)")
        console.out(
            "Sent:         \(metrics.changesAcknowledged) change(s); save to acknowledgement median \(median), p99 \(p99)"
        )
        console.out(
            "Conflicts:    \(metrics.merges) merged, \(metrics.conflictCopies) copied, "
                + "\(metrics.editsBeatDeletes) edits over deletes"
                + String(format: " (rate %.3f per change)", metrics.conflictRate))
    }

    static func summary(of report: SyncReport) -> String {
        var parts = ["sent \(report.pushed)", "received \(report.received)"]
        if report.merged > 0 { parts.append("merged \(report.merged)") }
        if report.conflictCopies > 0 { parts.append("\(report.conflictCopies) conflict copy/copies made") }
        if report.editsBeatDeletes > 0 { parts.append("\(report.editsBeatDeletes) edit(s) kept over a delete") }
        if report.refused > 0 { parts.append("\(report.refused) refused by the server") }
        if report.deferred > 0 { parts.append("\(report.deferred) not sent (retried later)") }
        if report.reuploaded > 0 { parts.append("\(report.reuploaded) sent again to a server that had lost them") }
        if report.undecryptable > 0 { parts.append("\(report.undecryptable) could not be decrypted") }
        if report.fullResync { parts.append("full resync") }
        return (report.succeeded ? "Synced: " : "Sync stopped: ") + parts.joined(separator: ", ")
    }

    static func exitCode(for kind: SyncFailure.Kind) -> ExitCode {
        switch kind {
        case .transient: .tempFail
        case .unreachable: .unavailable
        case .signedOut: .noPermission
        case .storage: .ioError
        }
    }
}
