import Foundation

/// Orders a trip into days (seed 002 §4 and §6).
public enum Itinerary {
    /// Groups `items` by the local date of their start in the item's own zone, and orders each
    /// group. Pure: the same items give the same days on every device with the same zone rules.
    ///
    /// - A 23:30 item in Tokyo is on that Tokyo date for every viewer: the date is the stored
    ///   local date, never a conversion.
    /// - A day is sorted by time first: by instant; items whose instants are equal, and items
    ///   whose zone this device does not know, fall back to the local time; then the order key
    ///   (bytes), then the item id.
    /// - Items with no start form the `.unscheduled` group, after every day, in (order key, id)
    ///   order. Days come in date order; empty groups are left out.
    /// - Tombstones are left out.
    public static func days<Item: ItineraryOrderable>(of items: [Item]) -> [ItineraryDay<Item>] {
        var byDay: [LocalDate: [Item]] = [:]
        var unscheduled: [Item] = []
        for item in items where !item.isDeleted {
            if let start = item.start {
                byDay[start.local.date, default: []].append(item)
            } else {
                unscheduled.append(item)
            }
        }
        var days: [ItineraryDay<Item>] = []
        for date in byDay.keys.sorted() {
            days.append(ItineraryDay(group: .day(date), items: orderDay(byDay[date] ?? [])))
        }
        if !unscheduled.isEmpty {
            days.append(ItineraryDay(group: .unscheduled, items: unscheduled.sorted { keyOrder($0, $1) }))
        }
        return days
    }

    /// Orders one day's items. Items with an instant are sorted by (instant, local time, key,
    /// id); items without one by (local time, key, id); the two runs are then merged by local
    /// time, so an item in an unknown zone sits where its wall clock puts it among the others.
    /// A merge rather than one comparator: comparing some pairs by instant and others by wall
    /// clock is not a consistent order when a day spans zones.
    static func orderDay<Item: ItineraryOrderable>(_ items: [Item]) -> [Item] {
        var timed: [(item: Item, instant: Date, local: LocalDateTime)] = []
        var floating: [(item: Item, local: LocalDateTime)] = []
        for item in items {
            guard let start = item.start else { continue }
            if let instant = start.instant {
                timed.append((item, instant, start.local))
            } else {
                floating.append((item, start.local))
            }
        }
        timed.sort { a, b in
            if a.instant != b.instant { return a.instant < b.instant }
            if a.local != b.local { return a.local < b.local }
            return keyOrder(a.item, b.item)
        }
        floating.sort { a, b in a.local != b.local ? a.local < b.local : keyOrder(a.item, b.item) }
        var merged: [Item] = []
        merged.reserveCapacity(items.count)
        var t = timed[...]
        var f = floating[...]
        while let x = t.first, let y = f.first {
            let floatingFirst = y.local != x.local ? y.local < x.local : keyOrder(y.item, x.item)
            if floatingFirst {
                merged.append(y.item)
                f = f.dropFirst()
            } else {
                merged.append(x.item)
                t = t.dropFirst()
            }
        }
        merged += t.map(\.item)
        merged += f.map(\.item)
        return merged
    }

    /// (order key, id), by bytes.
    static func keyOrder(_ a: some ItineraryOrderable, _ b: some ItineraryOrderable) -> Bool {
        // Bytes, not String equality: two canonically equivalent keys are still two keys.
        if !a.orderKey.utf8.elementsEqual(b.orderKey.utf8) { return OrderKey.precedes(a.orderKey, b.orderKey) }
        return OrderKey.precedes(a.id, b.id)
    }
}
