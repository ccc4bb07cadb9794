/// The sections `quire help` lists commands under, in this order.
enum CommandGroup: Int, CaseIterable, Sendable {
    case notes, account, sync, conflicts, tools

    var title: String {
        switch self {
        case .notes: "Notes (work with no network)"
        case .account: "Account (end-to-end encrypted; the password never leaves this device)"
        case .sync: "Sync"
        case .conflicts: "Conflicts"
        case .tools: "Other"
        }
    }
}
