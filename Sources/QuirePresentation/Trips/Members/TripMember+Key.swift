import Foundation
import QuireTrips

extension TripMember {
    /// "Key ABCD-EFGH-JKMN-PQRS", or "No key yet".
    var keyLine: String {
        fingerprint.isEmpty ? "No key yet" : "Key \(fingerprint)"
    }

    /// The warning when their key is not the one this device first saw: compare it with them
    /// before `doing`.
    func keyWarning(before doing: String) -> String? {
        keyChangedFrom.map {
            "\(username)'s key changed: this device first saw \($0). Compare it with them before \(doing)."
        }
    }
}
