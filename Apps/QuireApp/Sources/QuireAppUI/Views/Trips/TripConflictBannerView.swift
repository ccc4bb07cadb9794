import QuirePresentation
import SwiftUI

/// "Another device changed this to 12:30. Keep mine?" with its two answers.
struct TripConflictBannerView: View {
    let banner: TripConflictBanner
    let model: TripViewModel

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(banner.message).font(.callout)
            HStack {
                Button(banner.keepMineTitle) { model.keepMine(banner) }
                Button(banner.keepTheirsTitle) { model.keepTheirs(banner) }
            }
            .buttonStyle(.bordered)
        }
        .padding(8)
        .background(RoundedRectangle(cornerRadius: 8).fill(Color.orange.opacity(0.12)))
    }
}
