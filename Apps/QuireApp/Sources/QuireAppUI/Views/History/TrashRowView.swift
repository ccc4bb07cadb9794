import QuirePresentation
import SwiftUI

/// One deleted note: its title, first line, when it went, and whether its delete has synced.
struct TrashRowView: View {
    let row: TrashRow

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Text(row.title).font(.headline)
            if !row.preview.isEmpty {
                Text(row.preview).font(.subheadline).foregroundStyle(.secondary)
            }
            Text(row.deleted).font(.caption).foregroundStyle(.secondary)
            if let badge = row.badge {
                Text(badge).font(.caption2).foregroundStyle(.orange)
            }
        }
    }
}
