/// The sections `quire help` lists commands under, in this order.
enum CommandGroup: Int, CaseIterable, Sendable {
    case notes, account, sync, conflicts, history, trips, tools

    var title: String {
        switch self {
        case .notes: "Notes (work with no network)"
        case .account: "Account (end-to-end encrypted; the password never leaves this device)"
        case .sync: "Sync"
        case .conflicts: "Conflicts"
        case .history: "History and trash (every saved text, on every device, within the server's retention)"
        case .trips: "Travel plans (work with no network; sync and watch sync them too)"
        case .tools: "Other"
        }
    }
}
