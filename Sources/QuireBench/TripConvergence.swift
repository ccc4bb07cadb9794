import Foundation
import QuireTrips

/// Whether two devices hold the same trip, and the one expected: every item with exactly the
/// expected value of each item field, nothing waiting to be sent, no conflict.
enum TripConvergence {
    static let comparedFields: [TripField] = [.title, .kind, .start, .end, .location, .notes, .order]

    /// What is wrong, at most a few lines; empty when both devices show `expected`.
    static func problems(_ records: [(device: String, trip: TripRecord?)], expected: [ItemID: [TripField: String]])
        -> [String]
    {
        var problems: [String] = []
        for (device, record) in records {
            guard let record else {
                problems.append("\(device) does not hold the trip")
                continue
            }
            if record.items.count != expected.count {
                problems.append("\(device) shows \(record.items.count) items, not \(expected.count)")
            }
            if record.pendingCount > 0 { problems.append("\(device) still has \(record.pendingCount) changes to send") }
            if !record.conflicts.isEmpty { problems.append("\(device) has \(record.conflicts.count) conflicts") }
            for item in record.items {
                guard let values = expected[item.id] else {
                    problems.append("\(device) shows an unexpected item \(item.id)")
                    continue
                }
                for field in comparedFields where item.value(field) != values[field] {
                    problems.append(
                        "\(device), item \(item.id), \(field.rawValue): \(item.value(field) ?? "nil"), "
                            + "expected \(values[field] ?? "nil")")
                }
            }
        }
        if records.count == 2, let a = records[0].trip, let b = records[1].trip, a.items != b.items {
            problems.append("the two devices' items differ")
        }
        return Array(problems.prefix(5))
    }
}
