import QuireTrips

/// One thing a person does to the device's trips (seed 002), as the planner drew it.
///
/// Trips and items are named by index, resolved when the step runs (modulo the device's live
/// trips, or the trip's live items, in a stable order), so any sub-list of a plan stays valid.
/// Every value a step types carries its unique `token`, so the ledger can look for it.
public enum SimulationTripStep: Hashable, Sendable, CustomStringConvertible {
    /// A new trip titled `R<token>`.
    case create(token: Int)
    /// A new item titled `I<token>` at a place in its group (see ``SimulationTripStep/position``),
    /// with a start time when `timed`.
    case add(trip: Int, token: Int, timed: Bool, place: Int)
    /// One field of an item (or of the trip itself when `item` is nil) gets a new value: a title,
    /// a location or a start time made from the token, or, for the notes, line `line` replaced
    /// (appended when there is none).
    case edit(trip: Int, item: Int?, field: TripField, token: Int, line: Int)
    /// The item moves within its group.
    case move(trip: Int, item: Int, place: Int)
    case deleteItem(trip: Int, item: Int)
    /// The whole trip is deleted (by an owner; a step of another member does nothing, as the
    /// CLI refuses it).
    case deleteTrip(trip: Int)
    /// The person settles one of the device's conflicts (for an item deleted while edited,
    /// `.mine` restores it).
    case resolve(conflict: Int, keep: TripConflictChoice)

    /// The index of the trip the step picks; nil for `create` and `resolve`.
    var trip: Int? {
        switch self {
        case .add(let trip, _, _, _), .edit(let trip, _, _, _, _), .move(let trip, _, _), .deleteItem(let trip, _),
            .deleteTrip(let trip):
            trip
        case .create, .resolve: nil
        }
    }

    /// The fields the planner edits, and the trip's own.
    static let itemFields: [TripField] = [.title, .location, .start, .notes]
    static let tripFields: [TripField] = [.title, .notes]

    /// Where `place` puts an item among `others` (its group's other items, in order): first,
    /// last, or after one of them.
    static func position(_ place: Int, among others: [String]) -> OrderPosition {
        switch place % 4 {
        case 0: .first
        case 1: .last
        default: others.isEmpty ? .last : .after(others[place % others.count])
        }
    }

    public var description: String {
        switch self {
        case .create(let token): "trip create R\(token)"
        case .add(let trip, let token, let timed, let place):
            "trip#\(trip) add I\(token)\(timed ? " timed" : "") place \(place)"
        case .edit(let trip, let item, let field, let token, let line):
            "trip#\(trip) \(item.map { "item#\($0)" } ?? "itself") \(field.rawValue) -> \(token)"
                + (field == .notes ? " line#\(line)" : "")
        case .move(let trip, let item, let place): "trip#\(trip) move item#\(item) place \(place)"
        case .deleteItem(let trip, let item): "trip#\(trip) delete item#\(item)"
        case .deleteTrip(let trip): "trip#\(trip) delete the trip"
        case .resolve(let conflict, let keep): "trip resolve conflict#\(conflict) keep \(keep)"
        }
    }
}
