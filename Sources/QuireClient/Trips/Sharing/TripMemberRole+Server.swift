import Foundation
import QuireTrips

extension TripMemberRole {
    /// The role the server named; an unknown one (a newer server's) reads as a viewer, who may do
    /// least.
    init(server role: String) {
        self = TripMemberRole(rawValue: role) ?? .viewer
    }
}
