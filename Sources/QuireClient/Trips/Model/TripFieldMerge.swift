import QuireMerge
import QuireTrips

/// What to do when the server did not take this device's value of a field because another device
/// changed it first. Pure.
///
/// Two companions edit the item "Lunch" offline. Ana adds "book ahead" to its notes, Ben adds
/// "cash only" on another line; Ben syncs first. Ana's op meets Ben's value: the notes field
/// merges three ways against the value Ana edited from, and her device sends the merge, holding
/// both lines. Had both rewritten the same line, or had both set the time (a field that is one
/// value), nothing is merged: Ana's device asks her ("Ben changed this to 12:30. Keep mine?").
/// Two values are never joined into text nobody wrote.
enum TripFieldMerge {
    enum Resolution: Equatable {
        /// Both sides hold the same value: nothing to do.
        case same
        /// A text holding both sides' changes, to send on top of the server's revision.
        case merged(String)
        /// A real conflict: keep this device's value beside the server's and ask.
        case ask
    }

    /// - Parameters:
    ///   - base: the server's value this device's change was made from.
    ///   - mine: this device's newest value of the field.
    ///   - theirs: the server's value.
    static func resolve(field: String, base: String?, mine: String?, theirs: String?) -> Resolution {
        if mine == theirs { return .same }
        guard field == TripField.notes.rawValue else { return .ask }
        switch ThreeWayMerge.merge(base: base ?? "", local: mine ?? "", server: theirs ?? "") {
        case .clean(let text): return text == (theirs ?? "") ? .same : .merged(text)
        case .clash: return .ask
        }
    }
}
