import QuirePresentation
import SwiftUI

/// One photo: its thumbnail (a file in the device's photo cache) or a placeholder, and where it
/// stands when the view model says.
struct TripPhotoTileView: View {
    let tile: TripPhotoTile

    var body: some View {
        HStack(spacing: 12) {
            if let thumbnail = tile.thumbnail {
                AsyncImage(url: thumbnail) { image in
                    image.resizable().scaledToFill()
                } placeholder: {
                    ProgressView()
                }
                .frame(width: 64, height: 64)
                .clipped()
            } else {
                Image(systemName: tile.isFailed ? "exclamationmark.triangle" : "photo")
                    .frame(width: 64, height: 64)
            }
            if let status = tile.status {
                Text(status).font(.caption).foregroundStyle(tile.isFailed ? Color.red : Color.secondary)
            }
        }
    }
}
