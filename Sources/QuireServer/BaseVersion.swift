/// The server version a client's write was made on: its number and, when the client knows it,
/// its tag (the mark of the write that produced it).
///
/// A number alone does not name a text once a server is restored from an older backup: the
/// restored server hands the numbers after the backup out again, to other texts. A device that
/// read version 7 in the forgotten history and now writes "on version 7" would overwrite whatever
/// the restored history's version 7 is, unseen (issue 9: seeds 1046 and 1509 with restores). The
/// tags of the two differ, so the write meets the server's copy as a conflict instead, and the
/// device merges.
public struct BaseVersion: Sendable, Hashable {
    public var number: Int
    /// nil when the client sent none (older clients); never compared then.
    public var tag: Int64?

    public init(number: Int, tag: Int64? = nil) {
        self.number = number
        self.tag = tag
    }

    /// Whether this base is the note's current state: the same number and, when both sides have
    /// a tag (a state written before tags were kept has 0), the same tag.
    func names(_ current: StoredNote) -> Bool {
        guard number == current.version else { return false }
        guard let tag, tag != 0, current.mark != 0 else { return true }
        return tag == current.mark
    }
}
