import Foundation
import QuireTrips

/// Everything the list of trips shows.
public struct TripListState: Equatable, Sendable {
    public let rows: [TripListRow]
    /// What to show instead of rows: "Loading your trips…" before the database answered, "No
    /// trips yet" after; nil when there are rows.
    public let empty: String?
    /// Reading the list failed, for people; the last rows stay.
    public let readProblem: String?

    public init(rows: [TripListRow] = [], empty: String? = nil, readProblem: String? = nil) {
        self.rows = rows
        self.empty = empty
        self.readProblem = readProblem
    }

    /// The list for `list` (nil: not read yet). Pure.
    public static func build(list: [TripSummary]?, readProblem: String? = nil) -> TripListState {
        guard let list else { return TripListState(empty: "Loading your trips…", readProblem: readProblem) }
        return TripListState(
            rows: list.map(row), empty: list.isEmpty ? "No trips yet" : nil, readProblem: readProblem)
    }

    static func row(_ trip: TripSummary) -> TripListRow {
        let title = trip.title.trimmingCharacters(in: .whitespacesAndNewlines)
        var badges: [String] = []
        if trip.pendingCount > 0 { badges.append("\(trip.pendingCount) not synced") }
        if trip.conflictCount > 0 {
            badges.append(trip.conflictCount == 1 ? "1 conflict" : "\(trip.conflictCount) conflicts")
        }
        return TripListRow(
            id: trip.id, title: title.isEmpty ? "Untitled trip" : title,
            dates: TripViewState.dateRange(trip.startDate, trip.endDate),
            detail: trip.itemCount == 1 ? "1 item" : "\(trip.itemCount) items", badges: badges)
    }
}
