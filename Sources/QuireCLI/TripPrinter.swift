import QuireClient
import QuirePresentation
import QuireTrips
import QuireWire

/// The text of `quire trip ls`, `show` and `conflicts`: the trip screen's view state, as lines.
enum TripPrinter {
    /// `ab12cd34  Lisbon  2027-06-09 to 2027-06-12  3 items  [not synced, 1 conflict]`
    static func listLine(_ trip: TripSummary) -> String {
        var badges: [String] = []
        if trip.pendingCount > 0 { badges.append("not synced") }
        if trip.conflictCount > 0 {
            badges.append("\(trip.conflictCount) conflict\(trip.conflictCount == 1 ? "" : "s")")
        }
        let parts = [
            short(trip.id.description), trip.title.isEmpty ? "(untitled)" : trip.title,
            TripViewState.dateRange(trip.startDate, trip.endDate),
            "\(trip.itemCount) item\(trip.itemCount == 1 ? "" : "s")",
            badges.isEmpty ? nil : "[\(badges.joined(separator: ", "))]",
        ]
        return parts.compactMap { $0 }.joined(separator: "  ")
    }

    /// The trip's heading, its days and their rows, then the items deleted while edited.
    static func lines(_ state: TripViewState, trip: TripID) -> [String] {
        let id = short(trip.description)
        var heading = [state.title.isEmpty ? "(untitled)" : state.title, state.dates, "(\(id))"]
        if let pending = state.pendingBadge { heading.append("[\(pending)]") }
        var lines = [heading.compactMap { $0 }.joined(separator: "  ")]
        lines.append(
            state.zoneMode == .item
                ? "Times in each item's own zone." : "Times in your zone, \(state.viewerZone).")
        for banner in state.tripBanners { lines += bannerLines(banner, id: id, indent: "") }
        if let notes = state.notes, !notes.isEmpty {
            lines += notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        if state.empty == .noItems {
            lines += [
                "",
                "\(TripEmptyState.noItems.headline). Add one with: quire trip add \(id) --title T --at 'YYYY-MM-DD HH:MM' --zone ZONE",
            ]
        }
        for day in state.days {
            lines += ["", day.title]
            for row in day.rows { lines += rowLines(row) }
        }
        if !state.deletedWhileEdited.isEmpty {
            lines += ["", "Deleted on another device while you edited them:"]
            for row in state.deletedWhileEdited { lines += rowLines(row) }
        }
        return lines
    }

    /// `  12:30–13:30 Europe/Lisbon  Lunch  (meal)  [not synced]  ef56ab78`, then its details.
    static func rowLines(_ row: TripItemRow) -> [String] {
        let id = short(row.id.description)
        let first = [
            row.time, row.title.isEmpty ? "(untitled)" : row.title, row.kind.map { "(\($0))" },
            row.badges.isEmpty ? nil : "[\(row.badges.joined(separator: ", "))]", id,
        ]
        var lines = ["  " + first.compactMap { $0 }.joined(separator: "  ")]
        let details =
            [row.timeNote, row.location.map { "at \($0)" }]
            + (row.notes.map { $0.split(separator: "\n").map(String.init) } ?? [])
        lines += details.compactMap { $0 }.map { "      " + $0 }
        if let reason = row.refusedReason {
            lines.append("      refused by the server: \(reason) (edit the field to send it again)")
        }
        for banner in row.banners { lines += bannerLines(banner, id: id, indent: "    ") }
        return lines
    }

    static func bannerLines(_ banner: TripConflictBanner, id: String, indent: String) -> [String] {
        let hint =
            banner.isRestore
            ? "quire trip restore \(id)  (or keep the delete: quire trip resolve \(id) --field deleted --keep theirs)"
            : "quire trip resolve \(id) --field \(banner.field.rawValue) --keep mine|theirs"
        let mine = banner.mine.map { " Yours: \($0)." } ?? ""
        return [
            indent + "  ! \(banner.isRestore ? "" : "\(banner.field.rawValue): ")\(banner.message)\(mine)",
            indent + "    \(hint)",
        ]
    }

    /// `Lisbon / Lunch (ef56ab78)  start: yours 2027-06-10T13:00 Europe/Lisbon, theirs … (revision 4)`
    /// `tripTitle`: the title of a trip no longer listed (deleted), when `trip` is nil.
    static func conflictLine(
        _ conflict: TripFieldConflict, trip: TripRecord?, tripTitle: String? = nil, item: TripItemRecord?
    ) -> String {
        let where_ = [trip?.title ?? tripTitle ?? short(conflict.trip.description), item.map { $0.title }]
            .compactMap { $0 }
            .joined(separator: " / ")
        let id = short((conflict.item?.description ?? conflict.trip.description))
        if conflict.isTripDeletedWhileChanged {
            return "\(where_) (\(id))  deleted on another device while you changed it "
                + "(\(conflict.changesOfDeletedTrip) change(s) not sent): an owner restores it with them, "
                + "quire trip restore \(id); or let them go: quire trip resolve \(id) --field deleted --keep theirs"
        }
        if conflict.isDeletedWhileEdited {
            return "\(where_) (\(id))  deleted on another device while you edited it: quire trip restore \(id)"
        }
        return "\(where_) (\(id))  \(conflict.field.rawValue): yours \(conflict.mine ?? "(empty)"), "
            + "theirs \(conflict.theirs ?? "(empty)") (revision \(conflict.theirRevision)): "
            + "quire trip resolve \(id) --field \(conflict.field.rawValue) --keep mine|theirs"
    }

    static func short(_ id: String) -> String { ShortID.of(id) }
}
