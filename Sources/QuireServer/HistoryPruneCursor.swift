/// Where a pruning pass goes on: after this account's note.
public struct HistoryPruneCursor: Sendable, Equatable {
    public var account: Int64
    public var noteID: String

    public init(account: Int64, noteID: String) {
        self.account = account
        self.noteID = noteID
    }
}
