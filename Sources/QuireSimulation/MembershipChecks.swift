/// The pure checks of membership (issue 15): what the companion's device shows, and what the
/// server applied from whom, each read against what the world remembers.
enum MembershipChecks {
    /// "A removed member holds no values written after the removal": the values of
    /// `writtenWithout` (by trip id, the values written into the trip while the member could not
    /// read it) that `visible` (the removed member's device's values, keyed `trip/item/field…`)
    /// shows, as one line; nil when it shows none.
    static func leaked(visible: [NoteSnapshot], writtenWithout: [String: Set<String>]) -> String? {
        for (trip, values) in writtenWithout.sorted(by: { $0.key < $1.key }) {
            let prefix = "\(trip)/"
            let leaked = Set(visible.filter { $0.id.hasPrefix(prefix) }.flatMap(\.lines).filter(values.contains))
            guard leaked.isEmpty else {
                return "the removed companion holds \(leaked.sorted().joined(separator: ", ")) of trip "
                    + "\(trip.prefix(8)), written after its removal"
            }
        }
        return nil
    }

    /// "No op from a member without the right role is ever applied": one line for an ops request
    /// the server applied (`changed` fields) from an account whose role (`nil`: no member) cannot
    /// change the trip; nil otherwise.
    static func roleViolation(opID: String, trip: String, account: String, role: String?, changed: Int) -> String? {
        guard changed > 0, role != "owner", role != "editor" else { return nil }
        return "ops \(opID.prefix(8)) were applied to trip \(trip.prefix(8)) from account \(account) "
            + "as \(role ?? "no member")"
    }
}
