import QuireServer

/// The pure checks of what the server did: "at most once" and "only grew".
enum ServerChecks {
    /// Promise 3: no change id was applied twice, and each note's version is exactly the number
    /// of changes applied to it (versions start at 1 and each applied change adds one). Returns
    /// one line per violation.
    static func atMostOnce(applied: [AppliedWrite], notes: [(id: String, version: Int)]) -> [String] {
        var problems: [String] = []
        var seen: [String: Int] = [:]
        var perNote: [String: Int] = [:]
        for write in applied {
            seen[write.changeID, default: 0] += 1
            perNote[write.noteID, default: 0] += 1
        }
        for (change, count) in seen.sorted(by: { $0.key < $1.key }) where count > 1 {
            problems.append("change \(change) was applied \(count) times")
        }
        for note in notes where perNote[note.id, default: 0] != note.version {
            let count = perNote[note.id, default: 0]
            problems.append("note \(note.id) is at version \(note.version) after \(count) applied changes")
        }
        return problems
    }

    /// Versions only grow and notes never vanish (nothing is purged in a simulation). Returns one
    /// line per violation.
    static func onlyGrew(before: [String: Int], after: [String: Int]) -> [String] {
        before.sorted(by: { $0.key < $1.key }).compactMap { id, version in
            guard let now = after[id] else { return "note \(id) vanished from the server" }
            return now < version ? "note \(id) went from version \(version) back to \(now)" : nil
        }
    }
}
