import SwiftUI

/// The lines above a list that say what is wrong ("Couldn't sync · last synced 10:42") while the
/// rows stay; nothing when all are nil.
struct ProblemLines: View {
    let lines: [String?]

    var body: some View {
        let shown = lines.compactMap { $0 }
        if !shown.isEmpty {
            VStack(alignment: .leading, spacing: 2) {
                ForEach(shown, id: \.self) { line in
                    Text(line).font(.footnote).foregroundStyle(.secondary)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
            .padding(.horizontal)
            .padding(.vertical, 6)
            .background(.bar)
        }
    }
}
