import Foundation
import QuireClient
import QuireCrypto
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// End to end encryption of trips (DESIGN.md "Travel plans"): values sealed with the trip key and
/// bound to their trip, item and field; a keyed hash the server compares without reading; the
/// trip key wrapped with the account's notes key.
@Suite struct TripSealingTests {
    let trip = TripID()
    let item = ItemID()
    let key = SymmetricKey256.random()

    @Test func aSealedValueOpensOnlyAsTheFieldItWasSealedFor() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let sealed = try sealer.seal("Lunch at Time Out Market", item: item, field: "title")
        #expect(sealed.value != "Lunch at Time Out Market")
        #expect(try sealer.open(sealed.value, item: item, field: "title") == "Lunch at Time Out Market")
    }

    @Test(arguments: ["field", "item", "trip's own field", "trip", "key"])
    func aValueMovedElsewhereDoesNotOpen(_ moved: String) throws {
        let sealed = try TripSealer(trip: trip, key: key).seal("12:30", item: item, field: "start")
        var opener = TripSealer(trip: trip, key: key)
        var openItem: ItemID? = item
        var field = "start"
        switch moved {
        case "field": field = "end"
        case "item": openItem = ItemID()
        case "trip's own field": openItem = nil
        case "trip": opener = TripSealer(trip: TripID(), key: key)
        default: opener = TripSealer(trip: trip, key: .random())
        }
        #expect(throws: TripSealingError.self) {
            try opener.open(sealed.value, item: openItem, field: field)
        }
    }

    @Test func aTamperedValueDoesNotOpenAndTheErrorHoldsNoPlaintext() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let sealed = try #require(try sealer.seal("Secret beach", item: item, field: "location").value)
        var bytes = try #require(Data(base64Encoded: sealed))
        bytes[bytes.count - 1] ^= 1
        let error = try #require(throws: TripSealingError.self) {
            try sealer.open(bytes.base64EncodedString(), item: item, field: "location")
        }
        #expect(!error.description.contains("Secret"))
    }

    @Test func equalValuesOfOneFieldHashEquallyWhateverTheirNonce() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let first = try sealer.seal("Lunch", item: item, field: "title")
        let second = try sealer.seal("Lunch", item: item, field: "title")
        #expect(first.value != second.value)
        #expect(first.valueHash == second.valueHash)
        #expect(first.valueHash?.count == 64)
        #expect(first.valueHash?.allSatisfy(\.isHexDigit) == true)
    }

    @Test func theHashDiffersByValueByFieldByItemAndByTripKey() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let base = sealer.valueHash("Lunch", item: item, field: "title")
        #expect(sealer.valueHash("Dinner", item: item, field: "title") != base)
        #expect(sealer.valueHash("Lunch", item: item, field: "notes") != base)
        #expect(sealer.valueHash("Lunch", item: ItemID(), field: "title") != base)
        #expect(TripSealer(trip: trip, key: .random()).valueHash("Lunch", item: item, field: "title") != base)
    }

    @Test func deletedTravelsInPlainTextAndAClearedFieldAsNothing() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let tombstone = try sealer.seal("true", item: item, field: WireRoutes.deletedField)
        #expect(tombstone.value == "true")
        #expect(tombstone.valueHash != nil)
        #expect(try sealer.open("true", item: item, field: WireRoutes.deletedField) == "true")
        let cleared = try sealer.seal(nil, item: item, field: "notes")
        #expect(cleared == SealedFieldValue(value: nil, valueHash: nil))
        #expect(try sealer.open(nil, item: item, field: "notes") == nil)
    }

    @Test func aValueTooLargeForAFieldIsRefusedBeforeItTravels() throws {
        let sealer = TripSealer(trip: trip, key: key)
        let error = try #require(throws: TripSealingError.self) {
            try sealer.seal(String(repeating: "x", count: WireRoutes.maxTripValueBytes), item: item, field: "notes")
        }
        #expect(error.kind == .tooLarge)
    }

    @Test func theTripKeyUnwrapsOnlyForItsTripAndAccount() throws {
        let notesKey = SymmetricKey256.random()
        let wrapping = TripKeyWrapping(notesKey: notesKey, account: AccountID("alice"))
        let wrapped = try wrapping.wrap(key, trip: trip)
        #expect(try wrapping.unwrap(wrapped, trip: trip) == key)
        #expect(throws: TripSealingError.self) { try wrapping.unwrap(wrapped, trip: TripID()) }
        #expect(throws: TripSealingError.self) {
            try TripKeyWrapping(notesKey: notesKey, account: AccountID("bob")).unwrap(wrapped, trip: self.trip)
        }
        #expect(throws: TripSealingError.self) {
            try TripKeyWrapping(notesKey: .random(), account: AccountID("alice")).unwrap(wrapped, trip: self.trip)
        }
    }

    @Test func theServerNeverSeesAPlaintextValueOrTheTripKey() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let phone = try cluster.addDevice("phone")
        let trip = try await phone.database.createTrip(title: "Lisbon secrets", notes: "pack the blue hat")
        try await phone.database.addItem(
            to: trip,
            [.title: "Lunch at Time Out Market", .location: "Mercado da Ribeira", .start: Lisbon.noon, .order: "a"])
        #expect(await phone.sync().succeeded)

        let received = await cluster.server.received
        #expect(!received.isEmpty)
        for secret in ["Lisbon secrets", "blue hat", "Time Out", "Ribeira", "12:00", "Europe/Lisbon"] {
            #expect(!received.contains { $0.contains(secret) }, "the server saw \(secret)")
            #expect(
                !received.contains {
                    (Data(base64Encoded: $0).map { String(decoding: $0, as: UTF8.self) } ?? "").contains(secret)
                })
        }
        let tripKey = try #require(try await phone.database.tripKey(trip))
        #expect(
            !received.contains {
                Data(base64Encoded: $0) == tripKey.data || $0.contains(tripKey.data.base64EncodedString())
            })
    }

    /// RFC 5869, test case 1.
    @Test func theHashKeyDerivationIsHKDFSHA256() {
        let key = Data(repeating: 0x0b, count: 22)
        let salt = Data((0x00...0x0c).map { UInt8($0) })
        let info = Data((0xf0...0xf9).map { UInt8($0) })
        let expected =
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        #expect(HKDF.sha256(key: key, salt: salt, info: info, length: 42).hex == expected)
    }
}

extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
