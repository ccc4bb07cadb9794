import QuireTrips

// MARK: - Building the state from the trip

extension TripViewState {
    /// The screen for `record` (nil: the trip is gone; `loaded` false: not read yet). Pure: the
    /// view model publishes it, and `quire trip show` prints it.
    public static func build(
        record: TripRecord?, loaded: Bool, zoneMode: TripZoneMode, viewerZone: String, readProblem: String? = nil,
        actionFailure: String? = nil
    ) -> TripViewState {
        guard let record else {
            return TripViewState(
                empty: loaded ? .tripGone : .loading, zoneMode: zoneMode, viewerZone: viewerZone,
                readProblem: readProblem, actionFailure: actionFailure)
        }
        let days = record.days.map { day -> TripDaySection in
            let date: LocalDate? = if case .day(let date) = day.group { date } else { nil }
            return TripDaySection(
                title: day.group.description, date: date,
                rows: day.items.map { row($0, day: date, zoneMode: zoneMode, viewerZone: viewerZone) })
        }
        let deleted = record.deletedItemsWithConflicts.map {
            row($0, day: $0.start?.local.date, zoneMode: zoneMode, viewerZone: viewerZone)
        }
        let tripBanners = TripField.tripFields.compactMap { field in
            record.fields[field]?.conflict.map { TripConflictWording.banner($0, day: nil, zone: nil) }
        }
        let pending = record.pendingCount
        return TripViewState(
            title: record.title, dates: dateRange(record.startDate, record.endDate), notes: record.notes, days: days,
            deletedWhileEdited: deleted, tripBanners: tripBanners,
            pendingBadge: pending == 0 ? nil : "\(pending) change\(pending == 1 ? "" : "s") not synced",
            conflictCount: record.conflicts.count, empty: record.items.isEmpty ? .noItems : nil, zoneMode: zoneMode,
            viewerZone: viewerZone, readProblem: readProblem, actionFailure: actionFailure)
    }

    static func row(_ item: TripItemRecord, day: LocalDate?, zoneMode: TripZoneMode, viewerZone: String)
        -> TripItemRow
    {
        let time = item.start.map {
            TripTimeText.text(start: $0, end: item.end, day: day, mode: zoneMode, viewerZone: viewerZone)
        }
        var badges: [String] = []
        if item.hasPendingChanges { badges.append("not synced") }
        if item.hasConflict { badges.append("conflict") }
        if item.hasRejectedChange { badges.append("refused") }
        let banners = TripField.itemFields.compactMap { field in
            item.fields[field]?.conflict.map {
                TripConflictWording.banner($0, day: day, zone: item.start?.zoneID)
            }
        }
        return TripItemRow(
            id: item.id, title: item.title, kind: item.value(.kind), time: time?.time, zone: time?.zone,
            timeNote: time?.note, location: item.location.flatMap { $0.isEmpty ? nil : $0 },
            notes: item.notes.flatMap { $0.isEmpty ? nil : $0 }, badges: badges, banners: banners,
            refusedReason: item.fields.values.compactMap(\.rejectedReason).first)
    }

    /// "2027-06-09 to 2027-06-12", "from 2027-06-09", "until 2027-06-12", or nil.
    public static func dateRange(_ start: LocalDate?, _ end: LocalDate?) -> String? {
        switch (start, end) {
        case (let start?, let end?): "\(start) to \(end)"
        case (let start?, nil): "from \(start)"
        case (nil, let end?): "until \(end)"
        case (nil, nil): nil
        }
    }
}
