import Foundation
import QuireDomain

extension RemoteReadProblem {
    /// The line above a note's history.
    var historyNotice: String {
        switch self {
        case .unavailable(let reason):
            "Couldn't read the server's history (\(reason)); showing this device's texts only."
        case .unreadable(let count):
            "\(count) \(count == 1 ? "version" : "versions") on the server couldn't be opened with this account's key."
        }
    }

    /// The line above the trash.
    var trashNotice: String {
        switch self {
        case .unavailable(let reason):
            "Couldn't read the server's trash (\(reason)); showing this device's deleted notes only."
        case .unreadable(let count):
            "\(count) deleted \(count == 1 ? "note" : "notes") on the server couldn't be opened with this account's key."
        }
    }
}
