import Foundation
import QuireClient
import QuireCrypto
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// A trip's key epochs on the device (issue 15): values sealed after a rotation carry their epoch
/// and open only with that epoch's key; the chain gives a member every older key from the newest
/// one and nothing newer from an older one; the database keeps every key it was given.
@Suite struct TripKeyEpochTests {
    let trip = TripID()
    let item = ItemID()
    let first = SymmetricKey256.random()
    let second = SymmetricKey256.random()
    let third = SymmetricKey256.random()

    var rotatedTwice: TripKeyring { TripKeyring(current: third, epoch: 3, older: [1: first, 2: second]) }

    @Test func aValueOfALaterEpochIsMarkedAndOpensOnlyWithThatEpochsKey() throws {
        let old = try TripSealer(trip: trip, key: first).seal("Lunch", item: item, field: "title")
        let new = try TripSealer(trip: trip, keyring: rotatedTwice).seal("Dinner", item: item, field: "title")
        let removedMembersSealer = TripSealer(
            trip: trip, keyring: TripKeyring(current: second, epoch: 2, older: [1: first]))

        #expect(TripKeyEpoch.of(old.value!) == 1)
        #expect(new.value?.hasPrefix("e3.") == true)
        #expect(TripKeyEpoch.of(new.value!) == 3)
        let everyKey = TripSealer(trip: trip, keyring: rotatedTwice)
        #expect(try everyKey.open(old.value, item: item, field: "title") == "Lunch")
        #expect(try everyKey.open(new.value, item: item, field: "title") == "Dinner")
        #expect(throws: TripSealingError.self) { try removedMembersSealer.open(new.value, item: item, field: "title") }
        // The mark cannot be moved: the epoch is in the associated data too.
        let relabelled = "e2." + TripKeyEpoch.unmarked(new.value!)
        #expect(throws: TripSealingError.self) { try everyKey.open(relabelled, item: item, field: "title") }
        let unmarked = String(TripKeyEpoch.unmarked(new.value!))
        #expect(throws: TripSealingError.self) { try everyKey.open(unmarked, item: item, field: "title") }
    }

    @Test func theHashOfAValueChangesWithTheEpoch() throws {
        let before = TripSealer(trip: trip, key: first).valueHash("Lisbon", item: nil, field: "title")
        let after = TripSealer(trip: trip, keyring: rotatedTwice).valueHash("Lisbon", item: nil, field: "title")
        let olderKeyOnly = TripSealer(trip: trip, keyring: TripKeyring(current: second, epoch: 2, older: [1: first]))
        #expect(before != after)
        #expect(olderKeyOnly.valueHash("Lisbon", item: nil, field: "title") != after)
    }

    @Test func theChainGivesEveryOlderKeyFromTheNewestAndNothingNewer() throws {
        let chain = [
            TripKeyLinkDTO(
                epoch: 2, previousKey: try TripKeyChain.link(previous: first, new: second, trip: trip, epoch: 2)),
            TripKeyLinkDTO(
                epoch: 3, previousKey: try TripKeyChain.link(previous: second, new: third, trip: trip, epoch: 3)),
        ]
        #expect(try TripKeyChain.olderKeys(chain, newest: third, epoch: 3, trip: trip) == [1: first, 2: second])
        #expect(try TripKeyChain.olderKeys(chain, newest: third, epoch: 3, down: 2, trip: trip) == [2: second])
        #expect(throws: TripSealingError.self) {
            try TripKeyChain.olderKeys(chain, newest: second, epoch: 3, trip: trip)
        }
        #expect(throws: TripSealingError.self) {
            try TripKeyChain.olderKeys(chain, newest: third, epoch: 3, trip: TripID())
        }
        #expect(throws: TripSealingError.self) {
            try TripKeyChain.olderKeys(Array(chain.dropFirst()), newest: third, epoch: 3, trip: trip)
        }
    }

    @Test func theDatabaseKeepsEveryKeyItWasGivenAndNeverGoesBack() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        let original = try #require(try await database.keyring(trip))

        try await database.adoptKey(trip, key: third, epoch: 3, older: [2: second])
        let adopted = try #require(try await database.keyring(trip))
        try await database.adoptKey(trip, key: .random(), epoch: 2, older: [:])
        let reopened = try #require(try await fixture.open().keyring(trip))

        #expect(original.epoch == 1)
        #expect(adopted.epoch == 3)
        #expect(adopted.current == third)
        #expect(adopted.key(2) == second)
        #expect(adopted.key(1) == original.current)
        #expect(reopened == adopted, "an older epoch never replaces a newer one")
    }
}
