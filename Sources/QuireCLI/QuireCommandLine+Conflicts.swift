import Foundation
import QuireClient
import QuireDomain

// MARK: - conflicts, resolve

extension QuireCommandLine {
    struct ConflictJSON: Encodable {
        var original: NoteJSON?
        var copies: [NoteJSON]
    }

    /// Each conflict copy grouped under its original (nil when the original is gone).
    func conflictGroups(_ notes: [Note]) -> [(original: Note?, copies: [Note])] {
        let byID = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
        var groups: [NoteID: [Note]] = [:]
        for note in notes {
            if let original = note.conflictOf { groups[original, default: []].append(note) }
        }
        return groups.keys.sorted().map { (byID[$0], groups[$0] ?? []) }
    }

    func conflicts(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        let groups = conflictGroups(await allNotes(device))
        if arguments.flag("json") {
            try console.json(
                groups.map {
                    ConflictJSON(original: $0.original.map(NoteJSON.init), copies: $0.copies.map(NoteJSON.init))
                })
            return
        }
        guard !groups.isEmpty else {
            console.out("No conflicts.")
            return
        }
        for group in groups {
            let title = group.original.map { $0.title.isEmpty ? "(untitled)" : $0.title } ?? "(original deleted)"
            let id = group.original.map { $0.id.short } ?? "--------"
            var originalSide: String?
            if let original = group.original { originalSide = try await side(of: original.id, in: device) }
            console.out("\(id)  \(title)" + (originalSide.map { "  (\($0))" } ?? ""))
            for copy in group.copies {
                let copySide = try await side(of: copy.id, in: device)
                console.out("  copy \(copy.id.short)  \(copy.title)  (\(copySide))")
            }
        }
        console.out("Settle one with: quire resolve ID --keep original|copy|both")
    }

    /// Where the note's current text was typed, for people: "this device" or "typed on NAME".
    func side(of id: NoteID, in device: QuireDevice) async throws -> String {
        let typedOn = try await device.database.noteRow(id: id)?.typedOn
        return typedOn.map { "typed on \($0)" } ?? "this device"
    }

    func resolve(_ arguments: Arguments) async throws {
        let id = try arguments.expectPositionals(["id"])[0]
        guard let keep = arguments.options["keep"] else {
            throw CLIError.usage("'resolve' needs --keep original|copy|both")
        }
        guard ["original", "copy", "both", "mine", "theirs"].contains(keep) else {
            throw CLIError.usage("--keep takes original, copy, both (or mine, theirs), not '\(keep)'")
        }
        let device = try openDevice()
        let copy = try await conflictCopy(for: id, in: device)
        guard let originalID = copy.conflictOf else {
            throw CLIError.data("note \(copy.id) is not a conflict copy")
        }
        let original = try await device.database.noteRow(id: originalID)
        let copyHere = try await device.database.noteRow(id: copy.id)?.typedOn == nil
        let originalHere = original.map { $0.typedOn == nil }
        let choice = try Self.choice(keep, copyTypedHere: copyHere, originalTypedHere: originalHere)
        if choice == .theirs, original == nil, !arguments.flag("force") {
            throw CLIError(
                code: .failure,
                message: "the original of \(copy.id.short) was deleted: keeping it "
                    + "deletes the copy, the last place this text lives. Add --force to delete it, or "
                    + "--keep copy (or both) to keep the text.")
        }
        try await device.database.resolveConflict(copy: copy.id, keep: choice)
        let short = originalID.short
        let copyShort = copy.id.short
        switch choice {
        case .mine:
            console.out(
                "Kept the copy's text in \(short); the copy is deleted (undo: quire history \(short), "
                    + "or quire restore \(copyShort) for the copy).")
        case .theirs:
            console.out("Kept \(short) as it is; the copy is deleted (undo: quire restore \(copyShort)).")
        case .both:
            console.out("Kept both: the copy is now an ordinary note (undo: quire rm \(copyShort)).")
        }
    }

    /// What `--keep` names, as the database's choice. `original`, `copy` and `both` always work;
    /// `mine` and `theirs` only when exactly one side was typed on this device, and then `mine`
    /// is that side, whichever note holds it.
    static func choice(_ keep: String, copyTypedHere: Bool, originalTypedHere: Bool?) throws
        -> ConflictChoice
    {
        switch keep {
        case "original": return .theirs
        case "copy": return .mine
        case "both": return .both
        case "mine", "theirs":
            guard let originalTypedHere, originalTypedHere != copyTypedHere else {
                throw CLIError.usage(
                    "both sides of this conflict were typed "
                        + (copyTypedHere ? "on this device" : "on other devices")
                        + ": say which to keep with --keep original|copy|both (see quire diff)")
            }
            let mineIsCopy = copyTypedHere
            return (keep == "mine") == mineIsCopy ? .mine : .theirs
        default:
            throw CLIError.usage("--keep takes original, copy, both (or mine, theirs), not '\(keep)'")
        }
    }

    /// The copy named by `text`, or the one copy of the original named by `text`.
    func conflictCopy(for text: String, in device: QuireDevice) async throws -> Note {
        let note = try await resolveNote(text, in: device)
        if note.conflictOf != nil { return note }
        let copies = try await device.notes.conflictCopies(of: note.id)
        switch copies.count {
        case 1: return copies[0]
        case 0: throw CLIError.data("note \(note.id) has no conflict copy")
        default:
            let ids = copies.map { $0.id.short }.joined(separator: ", ")
            throw CLIError.data("note \(note.id) has \(copies.count) conflict copies (\(ids)); name one of them")
        }
    }
}
