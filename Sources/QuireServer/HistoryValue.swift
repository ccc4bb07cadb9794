/// A value bound to, or read from, a statement of ``NoteHistoryQueries``.
enum HistoryValue: Sendable, Equatable {
    case int(Int64)
    case text(String)
    case null
}
