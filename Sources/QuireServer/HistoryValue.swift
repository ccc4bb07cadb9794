import Foundation

/// A value bound to, or read from, a statement of ``NoteHistoryQueries`` or ``TripQueries``.
enum HistoryValue: Sendable, Equatable {
    case int(Int64)
    case text(String)
    case bool(Bool)
    case bytes(Data)
    case null
}
