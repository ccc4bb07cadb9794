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

    /// Whether this base, which does not name `current`, is a version this server's history
    /// wrote: true or false when the base carries a tag and the server keeps marks that old; nil
    /// when it cannot tell (no tag, or older than the marks kept). False after a restore from an
    /// older backup, for a version the restore forgot: the writer's base text is then no ancestor
    /// of the server's copy.
    ///
    /// The current state's mark is on its row; the replaced states' marks are kept from a
    /// horizon on, with their texts in the history or on their own (see ``NoteMarkQueries``), so
    /// a write writes no page for a mark (issue 13, 6). `kept(version, tag)` says whether they
    /// hold that pair, `oldestKept()` the lowest version they hold for the note; both are asked
    /// only when needed. A false answer needs the kept marks to run without a gap from the oldest.
    func isKnown(
        against current: StoredNote, kept: (_ version: Int, _ tag: Int64) throws -> Bool,
        oldestKept: () throws -> Int?
    ) rethrows -> Bool? {
        guard let tag else { return nil }
        let currentMarked = current.mark != 0
        if number == current.version, currentMarked { return tag == current.mark }
        if number < current.version, try kept(number, tag) { return true }
        // Marks go with their retention: a base older than the oldest kept cannot be judged.
        let oldest = [try oldestKept(), currentMarked ? current.version : nil].compactMap { $0 }.min()
        guard let oldest, number >= oldest else { return nil }
        return false
    }
}
