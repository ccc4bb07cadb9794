import QuireDomain

/// What "nothing lost" promises, as text the simulation can look for.
///
/// Every title and body line a user types is unique text in a plan (an *atom*). Saving a note
/// records the atoms it typed as owed. An owed atom is released only by a user action that took it
/// out of a note of the acting device that held it (an edit that replaced the line, a rename, a
/// delete, a conflict resolution): someone replaced or deleted it after seeing it, which DESIGN.md
/// promise 2 allows, even if another note (a conflict copy) still holds it. Syncs never release
/// anything: a sync that removes an owed atom from a device is the product losing it (a
/// concurrent delete must lose to an edit; a clash must keep both texts). A device *holds* an
/// atom when one of its live notes has it as a body line, or as its title (a conflict copy's
/// title counts without its "(conflict copy)" mark).
///
/// At the end, once every device has converged, every atom still owed must be held by all of them.
struct TextLedger {
    /// One piece of typed text and the step that typed it.
    struct Atom: Hashable, CustomStringConvertible {
        enum Kind: Hashable {
            case title
            case line
        }

        var text: String
        var kind: Kind
        var origin: String
        /// The trip it was typed into, for trip atoms ("" otherwise).
        var scope: String = ""

        var description: String {
            "\(kind == .title ? "title" : "line") \"\(text)\" (typed at \(origin))"
        }
    }

    private(set) var owed: [String: Atom] = [:]
    /// Every atom ever typed, released or not: what the history ledger looks for.
    private(set) var typed: [String: Atom] = [:]

    /// Records one user action on one device: releases what it removed from a note that held it,
    /// then owes what it typed.
    mutating func record(typed: [Atom], before: [NoteSnapshot], after: [NoteSnapshot]) {
        let afterByID = Dictionary(
            after.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (text, atom) in owed {
            let removed = before.contains { note in
                guard Self.holds(atom, in: [note]) else { return false }
                guard let later = afterByID[note.id] else { return true }
                return !Self.holds(atom, in: [later])
            }
            if removed { owed[text] = nil }
        }
        for atom in typed {
            owed[atom.text] = atom
            self.typed[atom.text] = atom
        }
    }

    /// Stops owing the atoms `forgiven` selects: text a product rule lets go (a removed member's
    /// changes that never synced, which its device warned of).
    mutating func forgive(where forgiven: (Atom) -> Bool) {
        owed = owed.filter { !forgiven($0.value) }
    }

    /// The owed atoms that none of `notes` holds, in a stable order.
    func missing(in notes: [NoteSnapshot]) -> [Atom] {
        owed.values.filter { !Self.holds($0, in: notes) }.sorted { $0.text < $1.text }
    }

    static func holds(_ atom: Atom, in notes: [NoteSnapshot]) -> Bool {
        switch atom.kind {
        case .line:
            notes.contains { $0.lines.contains(atom.text) }
        case .title:
            notes.contains {
                $0.title == atom.text
                    || ConflictPolicy.originalTitle(fromCopyTitle: $0.title) == atom.text
            }
        }
    }
}
