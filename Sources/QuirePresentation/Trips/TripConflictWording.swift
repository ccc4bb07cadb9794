import QuireTrips

/// The question a conflict asks, in words (seed 002 §3, §5). Pure.
///
/// The server says only that another device changed the field (companions' names come with
/// sharing), so the banner names "another device".
enum TripConflictWording {
    /// - Parameters:
    ///   - day: the date of the item's day, so a time on it reads "12:30".
    ///   - zone: the zone of the item's start, so a time in it reads without the zone.
    static func banner(_ conflict: TripFieldConflict, day: LocalDate?, zone: String?) -> TripConflictBanner {
        if conflict.isDeletedWhileEdited {
            return TripConflictBanner(
                item: conflict.item, field: conflict.field, message: "This item was deleted. Restore it?", mine: nil,
                isRestore: true)
        }
        let mine = conflict.mine.map { shown($0, field: conflict.field, day: day, zone: zone) }
        let message: String
        switch (conflict.field, conflict.theirs) {
        case (.order, _): message = "Another device moved this. Keep your place?"
        case (_, nil): message = "Another device cleared this. Keep mine?"
        case (let field, let theirs?):
            let value = shown(theirs, field: field, day: day, zone: zone)
            message = "Another device changed this to \(value). Keep mine?"
        }
        return TripConflictBanner(
            item: conflict.item, field: conflict.field, message: message, mine: mine, isRestore: false)
    }

    /// A value as the banner quotes it.
    static func shown(_ value: String, field: TripField, day: LocalDate?, zone: String?) -> String {
        switch field {
        case .start, .end: return TripTimeText.value(value, day: day, zone: zone)
        case .title, .notes, .location:
            let firstLine = value.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let cut = firstLine.count > 40 || firstLine != value
            return "“" + String(firstLine.prefix(40)) + (cut ? "…" : "") + "”"
        default: return value
        }
    }
}
