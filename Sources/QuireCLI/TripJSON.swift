import Foundation
import QuireClient
import QuirePresentation
import QuireTrips

// The shapes `quire trip … --json` prints. A scripting contract: keep the names stable. Every
// object carries ids, the fields with their values, server revisions and states.

/// One field: `state` is `synced`, `pending`, `conflict` or `refused`.
struct TripFieldJSON: Encodable {
    var value: String?
    /// The revision of the server's value (0: the server has none yet).
    var revision: Int
    var state: String
    var rejectedReason: String?
    var conflict: TripConflictJSON?

    init(_ field: TripField, _ state: TripFieldState) {
        value = state.value
        revision = state.revision
        self.state =
            state.conflict != nil
            ? "conflict" : state.rejectedReason != nil ? "refused" : state.isPending ? "pending" : "synced"
        rejectedReason = state.rejectedReason
        conflict = state.conflict.map { TripConflictJSON($0) }
    }

    static func all(_ fields: [TripField: TripFieldState]) -> [String: TripFieldJSON] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.key.rawValue, TripFieldJSON($0.key, $0.value)) })
    }
}

/// A conflict waiting for the person (`trip conflicts --json`, and inside a field).
struct TripConflictJSON: Encodable {
    var trip: String
    var tripTitle: String?
    var item: String?
    var itemTitle: String?
    var field: String
    var mine: String?
    var theirs: String?
    var theirRevision: Int
    /// The item was deleted on another device while this one edited it; `editedValues` are the
    /// edits a restore brings back.
    var deletedWhileEdited: Bool
    var editedValues: [String: String?]?
    /// The trip itself was deleted on another device while this one changed it; this many of its
    /// changes wait for an owner to restore it (or for the person to let them go).
    var tripDeletedWhileChanged: Bool
    var changesOfDeletedTrip: Int

    init(_ conflict: TripFieldConflict, tripTitle: String? = nil, itemTitle: String? = nil) {
        trip = conflict.trip.description
        self.tripTitle = tripTitle
        item = conflict.item?.description
        self.itemTitle = itemTitle
        field = conflict.field.rawValue
        mine = conflict.mine
        theirs = conflict.theirs
        theirRevision = conflict.theirRevision
        deletedWhileEdited = conflict.isDeletedWhileEdited
        tripDeletedWhileChanged = conflict.isTripDeletedWhileChanged
        changesOfDeletedTrip = conflict.changesOfDeletedTrip
        editedValues = conflict.editedValues.map { values in
            Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) })
        }
    }
}

/// A start or end: the stored local time and zone, and how it is shown.
struct TripTimeJSON: Encodable {
    var local: String
    var zone: String
    /// The time as shown in the chosen zone mode: `LOCAL ZONE`.
    var shown: String
    /// `exact`, `gap`, `overlap` or `unknownZone`.
    var resolution: String

    init(_ time: ItineraryTime, display: TimeDisplay) {
        local = time.local.description
        zone = time.zoneID
        let displayed = time.displayed(display)
        shown = displayed.description
        resolution =
            switch displayed.resolution {
            case .exact: "exact"
            case .inGap: "gap"
            case .inOverlap: "overlap"
            case .unknownZone: "unknownZone"
            }
    }
}

/// An item: `state` is `conflict`, `refused`, `pending` or `synced`, the first that holds.
struct TripItemJSON: Encodable {
    var id: String
    var trip: String
    var title: String
    var kind: String?
    var location: String?
    var notes: String?
    var order: String
    var start: TripTimeJSON?
    var end: TripTimeJSON?
    var deleted: Bool
    var state: String
    var fields: [String: TripFieldJSON]

    init(_ item: TripItemRecord, display: TimeDisplay) {
        id = item.id.description
        trip = item.trip.description
        title = item.title
        kind = item.value(.kind)
        location = item.location
        notes = item.notes
        order = item.order
        start = item.start.map { TripTimeJSON($0, display: display) }
        end = item.end.map { TripTimeJSON($0, display: display) }
        deleted = item.isDeleted
        state =
            item.hasConflict
            ? "conflict" : item.hasRejectedChange ? "refused" : item.hasPendingChanges ? "pending" : "synced"
        fields = TripFieldJSON.all(item.fields)
    }
}

/// `trip show --json`.
struct TripJSON: Encodable {
    struct Day: Encodable {
        /// nil for the unscheduled items.
        var date: String?
        var title: String
        var items: [TripItemJSON]
    }

    var id: String
    var title: String
    var startDate: String?
    var endDate: String?
    var notes: String?
    var role: String
    var state: String
    var pendingCount: Int
    var conflictCount: Int
    /// `item` or `viewer`: the zone `shown` times are in.
    var zoneMode: String
    var viewerZone: String
    var fields: [String: TripFieldJSON]
    var days: [Day]
    var deletedWhileEdited: [TripItemJSON]
    /// The members as the trip's log last showed this device; absent for a trip never shared.
    var members: [Member]?

    struct Member: Encodable {
        var username: String
        var role: String
    }

    init(_ trip: TripRecord, mode: TripZoneMode, viewerZone: String) {
        let display: TimeDisplay = mode == .item ? .item : .viewer(viewerZone)
        id = trip.id.description
        title = trip.title
        startDate = trip.startDate?.description
        endDate = trip.endDate?.description
        notes = trip.notes
        role = trip.role
        pendingCount = trip.pendingCount
        conflictCount = trip.conflicts.count
        state = conflictCount > 0 ? "conflict" : pendingCount > 0 ? "pending" : "synced"
        zoneMode = mode.rawValue
        self.viewerZone = viewerZone
        fields = TripFieldJSON.all(trip.fields)
        days = trip.days.map { day in
            let date: String? = if case .day(let date) = day.group { date.description } else { nil }
            return Day(
                date: date, title: day.group.description, items: day.items.map { TripItemJSON($0, display: display) })
        }
        deletedWhileEdited = trip.deletedItemsWithConflicts.map { TripItemJSON($0, display: display) }
    }
}

/// `trip ls --json`: one per trip.
struct TripListJSON: Encodable {
    var id: String
    var title: String
    var startDate: String?
    var endDate: String?
    var role: String
    var itemCount: Int
    var pendingCount: Int
    var conflictCount: Int
    var state: String
    var fields: [String: TripFieldJSON]

    init(_ summary: TripSummary, fields: [TripField: TripFieldState]) {
        id = summary.id.description
        title = summary.title
        startDate = summary.startDate?.description
        endDate = summary.endDate?.description
        role = summary.role
        itemCount = summary.itemCount
        pendingCount = summary.pendingCount
        conflictCount = summary.conflictCount
        state = conflictCount > 0 ? "conflict" : pendingCount > 0 ? "pending" : "synced"
        self.fields = TripFieldJSON.all(fields)
    }
}
