import QuirePresentation
import SwiftUI

/// One row: title, preview, date and the badge ("Not synced", "Conflict").
struct NoteRowView: View {
    let row: NoteRow

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            HStack(alignment: .firstTextBaseline) {
                Text(row.title).font(.headline).lineLimit(1)
                Spacer()
                Text(row.date).font(.caption).foregroundStyle(.secondary)
            }
            if !row.preview.isEmpty {
                Text(row.preview).font(.subheadline).foregroundStyle(.secondary).lineLimit(1)
            }
            if let badge = row.badge.label {
                Text(badge).font(.caption2.weight(.semibold)).foregroundStyle(color(of: row.badge))
            }
        }
        .padding(.vertical, 2)
    }

    private func color(of badge: NoteRow.Badge) -> Color {
        switch badge {
        case .conflict: .orange
        case .refused: .red
        case .notSynced, .none: .secondary
        }
    }
}
