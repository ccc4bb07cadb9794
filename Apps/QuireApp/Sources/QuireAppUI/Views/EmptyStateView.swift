import SwiftUI

/// What a screen shows instead of its content ("No notes yet", "Loading your trips…").
struct EmptyStateView: View {
    let title: String
    let systemImage: String
    var detail: String?

    var body: some View {
        ContentUnavailableView {
            Label(title, systemImage: systemImage)
        } description: {
            if let detail { Text(detail) }
        }
    }
}
