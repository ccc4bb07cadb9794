import Foundation
import Testing

@testable import QuireTrips

/// A delete conflict's edits as the database keeps them: each value with what it started from,
/// and the bare values of client schema 2, which restore on the field's newest revision.
struct TripEditedValueTests {
    @Test func anEditKeepsWhatItStartedFromThroughJSON() throws {
        let edits: [String: TripEditedValue] = [
            "start": TripEditedValue("2027-01-06T18:10 America/New_York", startedFrom: .init("2027-01-06T09:00 UTC")),
            "notes": TripEditedValue("gate B", startedFrom: .init(nil)),
            "title": TripEditedValue(nil, startedFrom: nil),
        ]
        let decoded = try JSONDecoder().decode(
            [String: TripEditedValue].self, from: try JSONEncoder().encode(edits))
        #expect(decoded == edits)
        #expect(decoded["notes"]?.startedFrom == .init(nil))
        #expect(decoded["title"]?.startedFrom == nil)
    }

    @Test func bareValuesOfSchemaTwoReadAsEditsOfUnknownStart() throws {
        let json = #"{"title":"Long lunch","notes":null}"#
        let decoded = try JSONDecoder().decode([String: TripEditedValue].self, from: Data(json.utf8))
        #expect(decoded["title"] == TripEditedValue("Long lunch", startedFrom: nil))
        #expect(decoded["notes"] == TripEditedValue(nil, startedFrom: nil))
    }
}
