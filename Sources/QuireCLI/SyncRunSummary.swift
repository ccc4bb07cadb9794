import Foundation
import QuireClient
import QuireDomain

/// What `quire sync` says about a run: the notes' line as before, then what the trips did, and
/// in `--json` the whole run's counts with each part's own.
struct SyncRunSummary: Encodable {
    /// Every part's counts together; the first failure.
    var total: SyncReport
    var notes: SyncReport?
    var trips: SyncReport?
    /// The photo uploads: `pushed` photos attached, `refused` refused, `deferred` waiting.
    var photos: SyncReport?

    init(_ parts: [(part: any SyncPart, report: SyncReport)]) {
        total = parts.reduce(into: SyncReport()) { $0.absorb($1.report) }
        notes = parts.first { $0.part is NotesSyncPart }?.report
        trips = parts.first { $0.part is TripsSyncPart }?.report
        photos = parts.first { $0.part is PhotosSyncPart }?.report
    }

    /// `Synced: sent 1, received 0; trips: sent 3 field change(s), received 2, 1 conflict(s) to settle (quire trip conflicts)`
    var text: String {
        var line = QuireCommandLine.summary(of: notes ?? total)
        if let trips, Self.didSomething(trips) || !trips.succeeded {
            var parts = ["sent \(trips.pushed) field change(s)", "received \(trips.received)"]
            if trips.merged > 0 { parts.append("merged \(trips.merged)") }
            if trips.fieldConflicts > 0 {
                parts.append("\(trips.fieldConflicts) conflict(s) to settle (quire trip conflicts)")
            }
            if trips.refused > 0 { parts.append("\(trips.refused) refused by the server") }
            if trips.deferred > 0 { parts.append("\(trips.deferred) not sent (retried later)") }
            if trips.undecryptable > 0 { parts.append("\(trips.undecryptable) could not be decrypted") }
            if trips.fullResync { parts.append("resynced from a snapshot") }
            if let failure = trips.failure, notes?.succeeded ?? true { parts.append("stopped: \(failure)") }
            line += "; trips: " + parts.joined(separator: ", ")
        }
        if let photos, photos.pushed + photos.refused + photos.deferred + photos.received > 0 {
            var parts: [String] = []
            if photos.pushed > 0 { parts.append("\(photos.pushed) uploaded") }
            if photos.received > 0 { parts.append("\(photos.received) thumbnail(s) received") }
            if photos.refused > 0 { parts.append("\(photos.refused) refused (quire trip photos ITEM says why)") }
            if photos.deferred > 0 { parts.append("\(photos.deferred) to resume later") }
            line += "; photos: " + parts.joined(separator: ", ")
        }
        return line
    }

    private static func didSomething(_ report: SyncReport) -> Bool {
        report.pushed + report.received + report.merged + report.fieldConflicts + report.refused + report.deferred
            + report.undecryptable > 0 || report.fullResync
    }

    enum CodingKeys: String, CodingKey { case notes, trips, photos }

    /// The total's fields at the top (as `quire sync --json` always printed), then `notes` and
    /// `trips` with each part's own.
    func encode(to encoder: Encoder) throws {
        try total.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(notes, forKey: .notes)
        try container.encodeIfPresent(trips, forKey: .trips)
        try container.encodeIfPresent(photos, forKey: .photos)
    }
}

/// The trips' lines of `quire status`.
enum TripStatusLines {
    static func lines(_ status: SyncStatus) -> [String] {
        var lines: [String] = []
        if status.tripConflictCount > 0 {
            lines.append(
                "Trip conflicts: \(status.tripConflictCount) field(s) wait for your choice (quire trip conflicts)")
        }
        if status.tripRejectedCount > 0 {
            lines.append(
                "Trips refused: \(status.tripRejectedCount) change(s) the server will not take "
                    + "(quire trip show TRIP says why; edit the field to send it again)")
        }
        return lines
    }

    /// "Photos:       uploading 3 photos, 41 of 120 MB", and the refused ones.
    static func lines(_ photos: TripsDatabase.PhotoUploadSummary) -> [String] {
        var lines: [String] = []
        if photos.photos > 0 {
            lines.append(
                "Photos:       uploading \(photos.photos) photo\(photos.photos == 1 ? "" : "s"), "
                    + PhotoSizes.progress(photos.uploadedBytes, of: photos.totalBytes))
        }
        if photos.failed > 0 {
            lines.append(
                "Photos refused: \(photos.failed) the server will not take (quire trip photos ITEM says why; "
                    + "quire trip photo rm PHOTO)")
        }
        return lines
    }
}
