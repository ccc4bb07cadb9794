import QuirePresentation
import SwiftUI

/// One version of a conflict: where it was typed, its title and its text.
struct ConflictSideView: View {
    let side: ConflictSide

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(side.label)
                .font(.caption.weight(.semibold))
                .foregroundStyle(side.isTypedHere ? Color.accentColor : Color.secondary)
            Text(side.title).font(.headline)
            Text(side.body)
                .font(.body)
                .textSelection(.enabled)
        }
        .frame(maxWidth: .infinity, alignment: .topLeading)
        .padding(10)
        .background(RoundedRectangle(cornerRadius: 8).strokeBorder(.quaternary))
    }
}
