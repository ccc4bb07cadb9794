import Foundation
import QuireTrips
import QuireWire

// MARK: - Key work a trip waits for before it sends anything (issue 15)

extension TripsSyncEngine {
    /// Finishes the key work waiting on every trip (``TripsDatabase/KeyWork``): removals a
    /// restored server forgot, made again, and rotations owed after a member left. Work that
    /// fails waits for the next run, its trip sends nothing meanwhile, and the run reports it.
    func finishDueKeyWork(_ report: inout SyncReport) async throws {
        var trips: Set<TripID> = []
        for work in TripsDatabase.KeyWork.allCases { trips.formUnion(try await database.keyWorkDue(work)) }
        for trip in trips.sorted(by: { $0.description < $1.description }) {
            try Task.checkCancellation()
            do {
                try await finishKeyWork(on: trip, &report)
            } catch let error as NotesAPIError where SendDisposition(error) == .stopRun {
                throw error
            } catch let error as NotesAPIError {
                deferredFailure = deferredFailure ?? error
            } catch {
                deferredFailure =
                    deferredFailure
                    ?? NotesAPIError(kind: .transient, message: "The trip's key work could not be finished: \(error)")
            }
        }
    }

    /// Finishes the key work waiting on `trip`, if any: its forgotten removals made again
    /// (``checkRemovals(_:_:)``), then the rotation it owes (``rotateDueKey(_:_:)``). Throws what
    /// stopped it; the work stays due.
    func finishKeyWork(on trip: TripID, _ report: inout SyncReport) async throws {
        let due = try await database.keyWork(on: trip)
        if due.contains(.removalCheck) { try await checkRemovals(trip, &report) }
        if due.contains(.rotation) { try await rotateDueKey(trip, &report) }
    }

    /// Rotates `trip`'s key if the server still asks for it (another owner's device may have
    /// rotated it), then ends the wait. A server that refuses this account the trip's keys (no
    /// such trip, or no longer an owner) ends it too: another owner rotates. Throws what stopped
    /// the rotation, and the wait goes on.
    func rotateDueKey(_ trip: TripID, _ report: inout SyncReport) async throws {
        guard let keySource else { return try await database.keyWorkDone(trip, .rotation) }
        do {
            if try await keySource.keys(of: trip).rekeyDue {
                try await keySource.rotateKey(of: trip, removing: [], trustingNewKeys: false)
                report.keysRotated += 1
            }
        } catch let error as NotesAPIError where error.kind == .refused && error.code != "trip_key_rotated" {
            // Ended below: nothing this device can rotate.
        } catch let refusal as TripSharing.Refusal {
            throw NotesAPIError(
                kind: .transient,
                message: "The trip's key could not be rotated after a member left (\(refusal.description)); "
                    + "nothing is sent into the trip until it is: see 'quire trip members'.")
        }
        try await database.keyWorkDone(trip, .rotation)
    }
}
