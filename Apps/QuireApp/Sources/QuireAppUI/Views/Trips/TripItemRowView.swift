import QuirePresentation
import SwiftUI

/// One itinerary item: its time, place and notes, badges, and its banners.
struct TripItemRowView: View {
    let row: TripItemRow
    let model: TripViewModel

    var body: some View {
        VStack(alignment: .leading, spacing: 3) {
            HStack(alignment: .firstTextBaseline) {
                Text(row.title).font(.headline)
                if let kind = row.kind { Text(kind).font(.caption).foregroundStyle(.secondary) }
            }
            if let time = row.time { Text(time).font(.subheadline) }
            if let note = row.timeNote { Text(note).font(.caption).foregroundStyle(.orange) }
            if let location = row.location { Text(location).font(.subheadline).foregroundStyle(.secondary) }
            if let notes = row.notes { Text(notes).font(.footnote).foregroundStyle(.secondary).lineLimit(3) }
            if !row.badges.isEmpty {
                Text(row.badges.joined(separator: " · ")).font(.caption2).foregroundStyle(.secondary)
            }
            if let reason = row.refusedReason { Text(reason).font(.caption).foregroundStyle(.red) }
            ForEach(Array(row.banners.enumerated()), id: \.offset) { item in
                TripConflictBannerView(banner: item.element, model: model)
            }
        }
    }
}
