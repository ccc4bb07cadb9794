import QuireTrips
import Testing

@testable import QuireSimulation

/// Shrunk plans of seeds that found holes in the trips (issue 14), kept as they were found so
/// each hole stays closed whatever the planner draws. Each failed before its fix.
struct TripCaseTests {
    static let config = SimulationConfig(devices: 3, steps: 0)

    /// The trip R3 with the item I5, made on d0 and synced to d1.
    static let shared: [SimulationAction] = [
        .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
        .sync(device: 0), .sync(device: 1),
    ]

    @Test func anEditAcknowledgedBeforeAnUnseeingDeleteIsOfferedBack() async {
        // Seed 4: d0's start time applied first; d1, which never saw it, deleted the item, and
        // the start time vanished from every device.
        let plan =
            Self.shared + [
                .trip(device: 0, .edit(trip: 1, item: 5, field: .start, token: 12, line: 0)),
                .trip(device: 1, .deleteItem(trip: 1, item: 5)),
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func anEditAnUnseeingDeleteMetIsOfferedBackOnEveryDevice() async {
        // Seed 4 again, checked on every device (issue 15): d1 typed the start time, d2 pulled it
        // and then the delete. Before, only d1 offered it back ("edited unseen by a delete" on
        // d2), so the edit was gone with d1; every device that holds it offers it now.
        let plan =
            Self.shared + [
                .trip(device: 0, .edit(trip: 1, item: 5, field: .start, token: 12, line: 0)),
                .trip(device: 1, .deleteItem(trip: 1, item: 5)),
            ]
        let everywhere = SimulationConfig(devices: 3, steps: 0, unseenEditsEverywhere: true)
        let outcome = await Simulation.run(plan, config: everywhere)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func changesToATripDeletedElsewhereAreOfferedBackAndRestoredOrLetGo() async {
        // Found from outside (stop 40): d1 added an item and renamed another offline while d0
        // deleted the whole trip; the server refused d1's changes, the trip vanished from d1's
        // list, and the changes stayed where no screen showed them, every sync failing. Now they
        // are one offer on d1 ("This trip was deleted. Restore it?"), which the ledger reads.
        for settle in [nil, TripConflictChoice.mine, .theirs] {
            var plan =
                Self.shared + [
                    .trip(device: 1, .add(trip: 0, token: 21, timed: false, place: 1)),
                    .trip(device: 1, .edit(trip: 0, item: 5, field: .title, token: 22, line: 0)),
                    .trip(device: 0, .deleteTrip(trip: 0)), .sync(device: 0), .sync(device: 1),
                ]
            if let settle { plan += [.trip(device: 1, .resolve(conflict: 0, keep: settle)), .sync(device: 1)] }
            let outcome = await Simulation.run(plan, config: Self.config)
            #expect(
                outcome.failure == nil,
                "\(settle.map { "\($0)" } ?? "unsettled"): \(outcome.failure.map { "\($0)" } ?? "")")
        }
    }

    @Test func aTripCursorFromAForgottenHistoryResyncs() async {
        // Seed 22: after the restore d2's trip cursor was from the forgotten history; every later
        // pull failed with invalid_cursor, and its forgotten delete was never sent again.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .sync(device: 2), .trip(device: 2, .deleteItem(trip: 3, item: 4)),
            .trip(device: 0, .add(trip: 3, token: 17, timed: true, place: 3)), .backUpServer, .sync(device: 2),
            .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func anEditMetByAPurgedDeleteStaysOfferedAfterTheSnapshot() async {
        // Seed 235: d1's title met the delete after the purge; the 410 snapshot that followed
        // dropped the item's tombstone, and the edit to restore was shown nowhere.
        let plan =
            Self.shared + [
                .trip(device: 0, .deleteItem(trip: 0, item: 0)),
                .trip(device: 1, .edit(trip: 0, item: 4, field: .title, token: 9, line: 0)), .sync(device: 0),
                .purgeTombstones,
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func anAcknowledgedEditComesBackWithALaterEditThatMetTheDelete() async {
        // Seed 252: d1's title applied, d0 deleted the item without seeing it, then d1's start
        // time met the delete: the conflict kept the start time, not the acknowledged title.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)), .sync(device: 0), .sync(device: 1),
            .trip(device: 1, .edit(trip: 0, item: 0, field: .title, token: 18, line: 0)), .sync(device: 1),
            .trip(device: 1, .add(trip: 3, token: 28, timed: true, place: 4)),
            .trip(device: 0, .deleteItem(trip: 3, item: 2)),
            .trip(device: 1, .edit(trip: 0, item: 3, field: .start, token: 31, line: 0)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aFieldConflictOnAnItemDeletedSinceBecomesItsRestoreOffer() async {
        // Seed 253: d2's title met d1's (a conflict, "Keep mine?"), then d0's delete of the item
        // arrived: the title stayed a conflict on a deleted item, offered as nothing to restore.
        let plan =
            Self.shared + [
                .trip(device: 1, .edit(trip: 0, item: 2, field: .title, token: 16, line: 0)),
                .concurrentSync(device: 2), .sync(device: 1), .trip(device: 0, .deleteItem(trip: 1, item: 2)),
                .trip(device: 2, .edit(trip: 2, item: 0, field: .title, token: 23, line: 0)), .sync(device: 2),
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aTripTheRestoredServerForgotIsMadeAgain() async {
        // Seed 311: the trip was made after the backup; every pull after the restore met 404.
        let plan: [SimulationAction] = [
            .trip(device: 2, .create(token: 18)), .backUpServer, .sync(device: 2), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aForgottenWriteOverwrittenInTheNewHistoryIsAConflict() async {
        // Seed 311 again: d2's start time was forgotten, and d0's, sent after the restore, took a
        // later revision of the new history: comparing revisions took d0's for d2's successor.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)), .sync(device: 0),
            .trip(device: 0, .edit(trip: 3, item: 3, field: .start, token: 8, line: 0)),
            .trip(device: 0, .edit(trip: 1, item: 4, field: .start, token: 17, line: 0)), .backUpServer,
            .sync(device: 2), .trip(device: 2, .edit(trip: 2, item: 4, field: .start, token: 23, line: 0)),
            .sync(device: 2), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aFirstValueOfAFieldOfAPurgedItemDoesNotMakeTheItemAgain() async {
        // Seed 5056: d2 set a start time (never set before, base 0) on an item d0 deleted, then
        // the purge: the server took the op as a new item of one field, shown nowhere else.
        let plan =
            Self.shared.filter { $0 != .sync(device: 1) } + [
                .sync(device: 2), .trip(device: 2, .edit(trip: 2, item: 1, field: .start, token: 9, line: 0)),
                .trip(device: 0, .deleteItem(trip: 2, item: 3)), .sync(device: 0), .purgeTombstones,
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aForgottenEditOfAnItemDeletedInTheNewHistoryJoinsItsRestoreOffer() async {
        // Seed 250: after the restore d1 resent its title; d2 had deleted the item in the new
        // history, and the title became a "Keep mine?" on an item that was gone, offered nowhere.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .sync(device: 2), .concurrentSync(device: 1), .backUpServer,
            .trip(device: 2, .edit(trip: 2, item: 0, field: .title, token: 13, line: 0)),
            .trip(device: 1, .add(trip: 3, token: 20, timed: true, place: 4)),
            .trip(device: 1, .edit(trip: 2, item: 6, field: .title, token: 24, line: 0)), .reconnect(device: 2),
            .sync(device: 1), .trip(device: 2, .deleteItem(trip: 2, item: 6)), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aRefusedDeleteBringsTheItemBack() async {
        // Seed 5079: d1's delete was refused (413) for good; the item stayed hidden on d1 while
        // every other device and the server kept it.
        let plan =
            Self.shared + [
                .trip(device: 1, .deleteItem(trip: 2, item: 4)), .fault(device: 1, .refuseWrite(413)),
                .sync(device: 1),
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aRefusedEditOfAnItemDeletedSinceJoinsItsRestoreOffer() async {
        // Seed 366: d0's title was refused (413) and stayed shown as refused; d2 deleted the
        // item, and the refused title was then shown nowhere.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .trip(device: 0, .edit(trip: 0, item: 2, field: .title, token: 19, line: 0)),
            .sync(device: 2), .fault(device: 0, .refuseWrite(413)), .concurrentSync(device: 0),
            .trip(device: 2, .deleteItem(trip: 2, item: 6)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func anEditOfAnItemDeletedAndPurgedBeforeItsDeviceSawTheDeleteIsOfferedBack() async {
        // Seed 5661: d1's notes applied; d2 deleted the item without seeing them, then the purge;
        // d1's snapshot after the 410 simply lacked the item, and the notes were gone.
        let plan =
            Self.shared + [
                .sync(device: 2), .trip(device: 1, .edit(trip: 2, item: 4, field: .notes, token: 20, line: 2)),
                .sync(device: 1), .trip(device: 2, .deleteItem(trip: 2, item: 6)), .sync(device: 2), .purgeTombstones,
            ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func waitingChangesGoOnTheRestoredHistorysBases() async {
        // Seed 2426: d2's delete waited with a base from the forgotten history, which the
        // restored server read as covering d0's start time sent after the restore: the delete
        // "had seen" it, and the start time was offered back to nobody.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .sync(device: 0), .backUpServer,
            .trip(device: 0, .edit(trip: 1, item: 1, field: .start, token: 9, line: 0)),
            .sync(device: 2), .trip(device: 2, .edit(trip: 1, item: 4, field: .title, token: 12, line: 0)),
            .sync(device: 2), .trip(device: 2, .deleteItem(trip: 2, item: 4)), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aForgottenDeleteSentAgainOffersBackAnEditOfTheNewHistory() async {
        // Seed 6126: d2's delete was forgotten and sent again on the revision it had had, which
        // covered d0's start time sent after the restore: the delete "had seen" it.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .backUpServer, .sync(device: 2), .trip(device: 2, .deleteItem(trip: 0, item: 3)),
            .trip(device: 0, .edit(trip: 0, item: 3, field: .start, token: 27, line: 0)), .sync(device: 2),
            .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func restoringAnItemThePurgeTookMakesItAgainWhole() async {
        // Seed 6427: d0's start met d1's delete, the purge took the item, and d0 restored it:
        // only the start went, so the server's item had no title, kind, place or order.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .sync(device: 0), .sync(device: 1), .trip(device: 1, .deleteItem(trip: 0, item: 1)), .sync(device: 1),
            .trip(device: 0, .edit(trip: 2, item: 2, field: .start, token: 14, line: 0)), .sync(device: 0),
            .purgeTombstones, .trip(device: 0, .resolve(conflict: 1, keep: .mine)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aForgottenDeleteSentAgainOffersBackAnEditItsDevicePulledAfterDeleting() async {
        // Seed 5789: d2's delete and d0's title were both forgotten; d2 had pulled the title
        // after deleting, which the resent delete took for having seen it.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .sync(device: 2), .trip(device: 2, .deleteItem(trip: 1, item: 2)), .backUpServer,
            .trip(device: 0, .edit(trip: 3, item: 4, field: .title, token: 14, line: 0)), .sync(device: 0),
            .sync(device: 2), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func restoringSendsEachEditOnTheValueItStartedFrom() async {
        // 10-device seed 29: d0's start time met d1's delete; the pull then brought d2's start
        // time, applied before the delete, which d0 never showed. Restoring sent d0's start on
        // that revision and replaced d2's without a conflict.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)), .sync(device: 0), .sync(device: 2),
            .sync(device: 1), .trip(device: 2, .edit(trip: 3, item: 0, field: .start, token: 70, line: 0)),
            .trip(device: 1, .add(trip: 3, token: 72, timed: true, place: 7)), .sync(device: 2),
            .trip(device: 1, .deleteItem(trip: 1, item: 3)), .sync(device: 1),
            .trip(device: 0, .edit(trip: 2, item: 4, field: .start, token: 105, line: 0)), .sync(device: 0),
            .trip(device: 0, .resolve(conflict: 3, keep: .mine)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func anEditWhoseReplyWasLostComesBackFromAnUnseeingDelete() async {
        // Seed 3550: d1's reply was lost and its pull brought its own location as another
        // device's; the resend's answer did not mark it as d1's own, so d0's delete, which never
        // saw it, offered nothing back.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 4, timed: true, place: 1)),
            .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)), .sync(device: 0),
            .append(device: 2, note: 2, token: 7), .reconnect(device: 0),
            .trip(device: 0, .deleteItem(trip: 3, item: 7)),
            .rename(device: 0, note: 4, token: 23), .append(device: 2, note: 5, token: 24),
            .rename(device: 2, note: 3, token: 25), .concurrentSync(device: 1), .fault(device: 1, .throttled),
            .fault(device: 1, .dropReply),
            .trip(device: 1, .edit(trip: 0, item: 7, field: .location, token: 30, line: 0)),
            .concurrentSync(device: 1), .trip(device: 1, .resolve(conflict: 3, keep: .mine)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func restoringAnItemAsksItsWaitingConflictAgain() async {
        // Seed 7288: d1's start time waited as "Keep mine?" beside d0's when d2 deleted the item;
        // restoring it sent d1's start on d0's, which d1 no longer showed, and d0's was lost.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 2, lines: 2), .sync(device: 1), .trip(device: 0, .create(token: 3)),
            .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)), .sync(device: 0), .sync(device: 2),
            .sync(device: 1), .trip(device: 1, .edit(trip: 3, item: 5, field: .start, token: 8, line: 0)),
            .fault(device: 2, .poisonNote(count: 2)), .fault(device: 2, .refuseWrite(422)),
            .trip(device: 0, .edit(trip: 2, item: 7, field: .start, token: 11, line: 0)),
            .editLine(device: 2, note: 1, line: 2, token: 13), .trip(device: 2, .deleteItem(trip: 1, item: 7)),
            .concurrentSync(device: 2), .sync(device: 0), .sync(device: 1), .sync(device: 2), .sync(device: 1),
            .trip(device: 1, .resolve(conflict: 1, keep: .mine)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aResendAfterARestoreDoesNotBringBackAnItemDeletedAndPurgedSince() async {
        // Seed 7092: d1 deleted I5 on the restored server and the purge took it; d0, resyncing,
        // sent its forgotten writes of I5 again on revision 0, which made the item again on the
        // server while d1 still showed it deleted.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .trip(device: 0, .add(trip: 3, token: 7, timed: true, place: 1)), .backUpServer,
            .sync(device: 1), .trip(device: 1, .deleteItem(trip: 3, item: 2)), .sync(device: 0), .restoreServer,
            .concurrentSync(device: 1), .purgeTombstones,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aNewerValueTypedWhileARequestWaitedStaysWhenTheRequestMeetsTheDelete() async {
        // Seed 8014: d0's request held its notes and a first location when d1's delete landed;
        // the location typed after it joined the restore offer with the first op, and the
        // request's next op then put its older location back over it.
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .sync(device: 1),
            .trip(device: 0, .edit(trip: 1, item: 3, field: .notes, token: 9, line: 0)),
            .trip(device: 1, .deleteItem(trip: 1, item: 3)),
            .trip(device: 0, .edit(trip: 2, item: 1, field: .location, token: 16, line: 0)), .disconnect(device: 0),
            .sync(device: 0), .sync(device: 1),
            .trip(device: 0, .edit(trip: 3, item: 5, field: .location, token: 28, line: 0)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }
}

extension TripCaseTests {
    /// Seed 53 (stop 40, with trip deletes in the planner): a change the trip's delete had not
    /// seen, acknowledged before the delete arrived, vanished with the trip; the delete now
    /// carries what its device had seen (`deleteSeenRevision` in the feed), and such changes
    /// come back to their device as the offer to restore the trip.
    @Test func anAcknowledgedChangeATripDeleteHadNotSeenIsOfferedBack() async {
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .sync(device: 0), .sync(device: 1),
            .trip(device: 0, .deleteTrip(trip: 3)),
            .trip(device: 1, .edit(trip: 1, item: nil, field: .title, token: 27, line: 0)),
            .sync(device: 1),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    /// Seed 135: the deleter restored the trip (its own unseen change offered back), and another
    /// device's change of the trip's notes, which had met the delete (a conflict on the trip's
    /// `deleted`), stayed as a conflict no screen shows once the trip was back; it is sent again.
    @Test func aTripFieldThatMetTheDeleteIsSentAgainWhenTheTripComesBack() async {
        let plan: [SimulationAction] = [
            .trip(device: 0, .create(token: 3)), .trip(device: 0, .add(trip: 0, token: 5, timed: false, place: 1)),
            .sync(device: 0), .sync(device: 1),
            .trip(device: 1, .edit(trip: 0, item: 4, field: .location, token: 6, line: 0)),
            .trip(device: 0, .edit(trip: 0, item: 5, field: .title, token: 7, line: 0)),
            .trip(device: 1, .deleteTrip(trip: 0)), .sync(device: 0),
            .trip(device: 0, .edit(trip: 3, item: nil, field: .notes, token: 25, line: 2)),
            .concurrentSync(device: 1), .trip(device: 1, .resolve(conflict: 3, keep: .mine)),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }
}
