import Foundation
import QuireTrips

extension TripMemberRole {
    /// "Owner", "Editor" or "Viewer".
    public var label: String {
        switch self {
        case .owner: "Owner"
        case .editor: "Editor"
        case .viewer: "Viewer"
        }
    }
}
