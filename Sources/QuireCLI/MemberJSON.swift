import QuireClient

/// One member in `quire trip members --json`.
struct MemberJSON: Encodable {
    var username: String
    var role: String
    var fingerprint: String
    /// `new` (first seen now), `known`, or `changed` (not the key this device saw first).
    var key: String

    init(_ person: TripSharing.Person) {
        username = person.username
        role = person.role
        fingerprint = person.fingerprint
        key = Self.keyState(person.key)
    }

    static func keyState(_ check: TripsDatabase.KeyCheck) -> String {
        switch check {
        case .new: "new"
        case .known: "known"
        case .changed: "changed"
        }
    }
}
