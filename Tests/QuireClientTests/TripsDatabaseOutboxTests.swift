import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// The outbox on the database alone (seed 002 §1, §3, §7): a local edit and its outbox row land
/// together, waiting edits of one field fold while unsent, a queued edit moves its base when an
/// earlier one is acknowledged, and a pull never overwrites a waiting edit.
@Suite struct TripsDatabaseOutboxTests {
    @Test func aLocalEditShowsAtOnceAndWaitsInTheOutboxAcrossAReopen() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let trip: TripID
        let lunch: ItemID
        do {
            let database = try fixture.open()
            trip = try await database.createTrip(title: "Lisbon")
            lunch = try await database.addItem(to: trip, [.title: "Lunch", .kind: "meal", .order: "a"])
        }

        let reopened = try fixture.open()
        let record = try #require(try await reopened.trip(trip))
        #expect(record.title == "Lisbon")
        #expect(record.items.map(\.id) == [lunch])
        let item = try #require(record.items.first)
        #expect(item.title == "Lunch")
        #expect(item.kind == .meal)
        #expect(item.fields[.title]?.isPending == true)
        #expect(item.fields[.title]?.revision == 0)
        // The trip's title and the item's three fields.
        #expect(try await reopened.statusRowNow().pendingCount == 4)
    }

    @Test func twoEditsOfAFieldBeforeSendingFoldIntoOneOpWithTheFirstBaseAndTheLastValue() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)

        try await database.editItem(lunch, [.title: "Lunch at the market"])
        try await database.editItem(lunch, [.title: "Lunch at Time Out Market"])

        let request = try #require(try await database.nextRequest(for: trip, limit: 200))
        #expect(request.ops.count == 1)
        let op = try #require(request.ops.first)
        #expect(op.field == "title")
        #expect(op.value == "Lunch at Time Out Market")
        #expect(op.baseRevision == 2)
    }

    @Test func anEditBackToTheServersValueBeforeSendingLeavesNothingToSend() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)

        try await database.editItem(lunch, [.title: "Dinner"])
        try await database.editItem(lunch, [.title: "Lunch"])

        #expect(try await database.nextRequest(for: trip, limit: 200) == nil)
        #expect(try await database.item(lunch)?.hasPendingChanges == false)
    }

    @Test func anEditQueuedBehindAnOpInFlightMovesItsBaseWhenThatOpIsAcknowledged() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)

        try await database.editItem(lunch, [.start: Lisbon.noon])
        let first = try #require(try await database.nextRequest(for: trip, limit: 200))
        // Typed while the first request is on the way: it cannot fold into a frozen op.
        try await database.editItem(lunch, [.start: Lisbon.halfPastTwelve])
        try await database.confirmApplied(try #require(first.ops.first).seq, revision: 3)

        let second = try #require(try await database.nextRequest(for: trip, limit: 200))
        #expect(second.opID != first.opID)
        let op = try #require(second.ops.first)
        #expect(op.value == Lisbon.halfPastTwelve)
        #expect(op.baseRevision == 3)
        #expect(op.baseValue == Lisbon.noon)
    }

    @Test func aRequestsIdIsTimeOrderedSoTheServerFilesItAtTheEndOfItsRecords() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)
        try await database.editItem(lunch, [.title: "Dinner"])

        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let request = try #require(try await database.nextRequest(for: trip, limit: 200))
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        let characters = Array(request.opID)
        #expect(characters[14] == "7")
        let made = try #require(UInt64(String(characters[0..<8] + characters[9..<13]), radix: 16))
        #expect(made >= before && made <= after)
    }

    @Test func aFrozenRequestIsHandedOutAgainUnchangedUntilItIsAnswered() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)
        try await database.editItem(lunch, [.location: "Mercado da Ribeira"])

        let first = try #require(try await database.nextRequest(for: trip, limit: 200))
        try await database.editItem(lunch, [.location: "Time Out Market"])
        let again = try #require(try await TripsDatabase(fileURL: fixture.fileURL).nextRequest(for: trip, limit: 200))

        #expect(again == first)
        #expect(again.dto == first.dto)
        #expect(first.ops.first?.sealed?.value != nil)
    }

    @Test func aPullNeverOverwritesAFieldWithAWaitingEditAndIgnoresWhatIsNotNewer() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)
        try await database.editItem(lunch, [.title: "Lunch at Time Out Market"])

        try await database.applyTripChanges(
            trip,
            fields: [
                .init(item: lunch, field: "title", value: "Brunch", revision: 5),
                .init(item: lunch, field: "order", value: "stale", revision: 1),
                .init(item: lunch, field: "notes", value: "book ahead", revision: 6),
            ], cursor: Cursor("r6"))

        let item = try #require(try await database.item(lunch))
        #expect(item.title == "Lunch at Time Out Market")
        #expect(item.fields[.title]?.revision == 5)
        #expect(item.fields[.title]?.isPending == true)
        #expect(item.order == "a")
        #expect(item.notes == "book ahead")
    }

    @Test func aSnapshotReplacesTheLocalCopyAndKeepsTheWaitingEdits() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)
        let gone = try await database.addItem(to: trip, [.title: "Museum", .order: "b"])
        _ = try await database.acknowledgeNextRequest(of: trip, from: 2)
        try await database.editItem(lunch, [.notes: "book ahead"])

        try await database.replaceWithSnapshot(
            .init(id: trip, key: nil, role: "owner", deleted: false, revision: 9),
            fields: [
                .init(item: nil, field: "title", value: "Lisbon 2027", revision: 7),
                .init(item: lunch, field: "title", value: "Lunch", revision: 2),
                .init(item: lunch, field: "order", value: "a", revision: 2),
            ], cursor: Cursor("r9"))

        let record = try #require(try await database.trip(trip))
        #expect(record.title == "Lisbon 2027")
        #expect(record.items.map(\.id) == [lunch])
        #expect(record.items.first?.notes == "book ahead")
        #expect(record.items.first?.fields[.notes]?.isPending == true)
        // The museum this device had sent is in no snapshot: deleted elsewhere and purged before
        // this device saw the delete. It is gone from the list, offered back to restore.
        #expect(try await database.item(gone)?.isDeleted == true)
        #expect(record.deletedItemsWithConflicts.map(\.id) == [gone])
        #expect(try await database.conflicts().first?.editedValues == [.title: "Museum", .order: "b"])
    }

    @Test func itemsOrderByKeyThenIDTheSameWhereverTheyWereMade() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        let ids = [ItemID(), ItemID(), ItemID()].sorted()
        try await database.addItem(to: trip, [.title: "late", .order: "b"], id: ids[0])
        try await database.addItem(to: trip, [.title: "tie 2", .order: "a"], id: ids[2])
        try await database.addItem(to: trip, [.title: "tie 1", .order: "a"], id: ids[1])

        #expect(try await database.trip(trip)?.items.map(\.title) == ["tie 1", "tie 2", "late"])
    }

    @Test(arguments: [
        (TripField.kind, "spaceship"), (.start, "10:00"), (.start, "2027-06-10T10:00"),
        (.end, "tomorrow Europe/Lisbon"),
        (.deleted, "true"), (.startDate, "2027-06-10"),
    ])
    func anItemRefusesAValueItsFieldCannotHold(_ field: TripField, _ value: String) async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        let item = try await database.addItem(to: trip, [.title: "Lunch"])

        await #expect(throws: TripsDatabaseError.self) {
            try await database.editItem(item, [field: value])
        }
        #expect(try await database.item(item)?.fields[field] == nil)
    }

    @Test func aDeletedItemLeavesTheListAndRefusesEditsUntilRestored() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (trip, lunch) = try await Self.syncedLunch(database)

        try await database.deleteItem(lunch)
        #expect(try await database.trip(trip)?.items.isEmpty == true)
        await #expect(throws: TripsDatabaseError.self) { try await database.editItem(lunch, [.title: "x"]) }

        try await database.restoreItem(lunch)
        #expect(try await database.trip(trip)?.items.map(\.title) == ["Lunch"])
        // Deleting and restoring before sending leaves nothing to send.
        #expect(try await database.nextRequest(for: trip, limit: 200) == nil)
    }

    /// A trip with one item, "Lunch" at order "a", acknowledged by the server: the trip's title at
    /// revision 1, the item's title and order at revision 2.
    static func syncedLunch(_ database: TripsDatabase) async throws -> (TripID, ItemID) {
        let trip = try await database.createTrip(title: "Lisbon")
        let lunch = try await database.addItem(to: trip, [.title: "Lunch", .order: "a"])
        let request = try #require(try await database.nextRequest(for: trip, limit: 200))
        for op in request.ops {
            try await database.confirmApplied(op.seq, revision: op.item == nil ? 1 : 2)
        }
        return (trip, lunch)
    }
}

extension TripsDatabase {
    /// The trips' status as it is now.
    func statusRowNow() async throws -> TripsStatusRecord {
        for await record in statusRow() { return record }
        throw RequireFailure(what: "a status")
    }
}
