import Testing

@testable import QuireSimulation

/// The pure checks, fed evidence by hand: each must flag what it exists to flag.
struct CheckerTests {
    @Test func aChangeAppliedTwiceIsFlagged() {
        let applied = [
            AppliedWrite(noteID: "n1", changeID: "c1"), AppliedWrite(noteID: "n1", changeID: "c1"),
        ]
        let problems = ServerChecks.atMostOnce(applied: applied, notes: [(id: "n1", version: 2)])
        #expect(problems == ["change c1 was applied 2 times"])
    }

    @Test func aVersionThatDisagreesWithTheAppliedChangesIsFlagged() {
        let applied = [AppliedWrite(noteID: "n1", changeID: "c1")]
        #expect(ServerChecks.atMostOnce(applied: applied, notes: [(id: "n1", version: 1)]).isEmpty)
        #expect(
            ServerChecks.atMostOnce(applied: applied, notes: [(id: "n1", version: 2)]).count == 1)
    }

    @Test func versionsGoingBackOrNotesVanishingAreFlagged() {
        #expect(ServerChecks.onlyGrew(before: ["a": 2], after: ["a": 3, "b": 1]).isEmpty)
        #expect(ServerChecks.onlyGrew(before: ["a": 2], after: ["a": 1]).count == 1)
        #expect(ServerChecks.onlyGrew(before: ["a": 2], after: [:]).count == 1)
    }

    @Test func typedTextIsOwedUntilSomeoneWhoHeldItRemovesIt() {
        var ledger = TextLedger()
        let line = TextLedger.Atom(text: "L9", kind: .line, origin: "test")
        let withLine = [NoteSnapshot(id: "n", title: "T1", body: "L1\nL9", conflictOf: nil)]
        ledger.record(typed: [line], before: [], after: withLine)
        // A sync that drops it would be a loss: still owed, and missing where it is absent.
        let without = [NoteSnapshot(id: "n", title: "T1", body: "L1", conflictOf: nil)]
        #expect(ledger.missing(in: without) == [line])
        #expect(ledger.missing(in: withLine).isEmpty)
        // A device that did not hold it deletes a note: nothing released.
        ledger.record(typed: [], before: without, after: [])
        #expect(ledger.owed.count == 1)
        // A device that held it replaces the line: released.
        ledger.record(typed: [], before: withLine, after: without)
        #expect(ledger.owed.isEmpty)
    }

    @Test func aConflictCopyTitleHoldsItsOriginalTitle() {
        let title = TextLedger.Atom(text: "T4", kind: .title, origin: "test")
        let copy = NoteSnapshot(id: "c", title: "T4 (conflict copy)", body: "", conflictOf: "n")
        #expect(TextLedger.holds(title, in: [copy]))
        #expect(
            !TextLedger.holds(
                title, in: [NoteSnapshot(id: "m", title: "T44", body: "", conflictOf: nil)]))
    }

    // MARK: - Membership (issue 15): one injected fault each must be flagged

    @Test func oneValueWrittenAfterTheRemovalOnTheRemovedDeviceIsFlagged() {
        let trip = "7a1be000-0000-4000-8000-000000000003"
        let written = [trip: Set(["E40", "N41"])]
        let before = [
            NoteSnapshot(id: "\(trip)/-/title", title: "", body: "R3", conflictOf: nil),
            NoteSnapshot(id: "\(trip)/i1/notes", title: "", body: "N12", conflictOf: nil),
        ]
        #expect(MembershipChecks.leaked(visible: before, writtenWithout: written) == nil)
        // The device keeps one value written after its removal, in a notes line.
        let kept = before + [NoteSnapshot(id: "\(trip)/i1/notes#mine", title: "", body: "N12\nN41", conflictOf: nil)]
        let leak = MembershipChecks.leaked(visible: kept, writtenWithout: written)
        #expect(leak?.contains("holds N41 of trip 7a1be000") == true, "\(leak ?? "nil")")
        // The same value in another trip is no leak of this one.
        let elsewhere = [
            NoteSnapshot(id: "7a1be000-0000-4000-8000-000000000009/-/notes", title: "", body: "N41", conflictOf: nil)
        ]
        #expect(MembershipChecks.leaked(visible: elsewhere, writtenWithout: written) == nil)
    }

    @Test func oneOpAppliedFromAMemberWithoutTheRightRoleIsFlagged() {
        for role in ["owner", "editor"] {
            #expect(
                MembershipChecks.roleViolation(opID: "op1", trip: "t1", account: "a2", role: role, changed: 1) == nil)
        }
        // Refused (nothing changed): no violation, whatever the role.
        #expect(
            MembershipChecks.roleViolation(opID: "op1", trip: "t1", account: "a2", role: "viewer", changed: 0) == nil)
        let viewer = MembershipChecks.roleViolation(opID: "op1", trip: "t1", account: "a2", role: "viewer", changed: 1)
        #expect(viewer == "ops op1 were applied to trip t1 from account a2 as viewer")
        let removed = MembershipChecks.roleViolation(opID: "op2", trip: "t1", account: "a2", role: nil, changed: 1)
        #expect(removed?.hasSuffix("as no member") == true)
    }

    @Test func oneDeviceThatDoesNotOfferAnUnseenEditBackIsFlagged() {
        let expected: Set = ["t/i1/title", "t/i2/notes"]
        let everywhere: Set = ["t/i1/title#deleted", "t/i2/notes#deleted", "t/i3/title"]
        #expect(UnseenEditCheck.missing(expected: expected, offered: everywhere, excused: []).isEmpty)
        // One device keeps one offer fewer: flagged, unless it deleted the item or let it go.
        let short: Set = ["t/i1/title#deleted"]
        #expect(UnseenEditCheck.missing(expected: expected, offered: short, excused: []) == ["t/i2/notes"])
        #expect(UnseenEditCheck.missing(expected: expected, offered: short, excused: ["t/i2"]).isEmpty)
        // A live value of the field is no offer to restore.
        #expect(
            UnseenEditCheck.missing(expected: expected, offered: short.union(["t/i2/notes"]), excused: []).count == 1)
    }
}
