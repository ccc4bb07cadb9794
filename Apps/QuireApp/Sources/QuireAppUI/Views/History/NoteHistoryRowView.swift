import QuirePresentation
import SwiftUI

/// One earlier text of a note: which version, its first line, and when, where and how long.
struct NoteHistoryRowView: View {
    let row: NoteHistoryRow

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Text(row.label).font(.caption).foregroundStyle(.secondary)
            Text(row.firstLine).font(.headline)
            Text([row.time, row.device, row.size].joined(separator: " · "))
                .font(.subheadline).foregroundStyle(.secondary)
        }
    }
}
