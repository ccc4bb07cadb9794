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

    func conflicts(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
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
            let id = group.original.map { String($0.id.description.prefix(8)) } ?? "--------"
            console.out("\(id)  \(title)")
            for copy in group.copies {
                console.out("  copy \(String(copy.id.description.prefix(8)))  \(copy.title)")
            }
        }
        console.out("Settle one with: quire resolve ID --keep mine|theirs|both")
    }

    func resolve(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["keep"], flags: [])
        let id = try arguments.expectPositionals(["id"])[0]
        guard let keep = arguments.options["keep"] else {
            throw CLIError.usage("'resolve' needs --keep mine|theirs|both")
        }
        guard let choice = ConflictChoice(rawValue: keep) else {
            throw CLIError.usage("--keep takes mine, theirs or both, not '\(keep)'")
        }
        let device = try openDevice()
        let copy = try await conflictCopy(for: id, in: device)
        try await device.database.resolveConflict(copy: copy.id, keep: choice)
    }

    /// The copy named by `text`, or the one copy of the original named by `text`.
    func conflictCopy(for text: String, in device: QuireDevice) async throws -> Note {
        let note = try await resolveNote(text, in: device)
        if note.conflictOf != nil { return note }
        let copies = await allSummaries(device).filter { $0.conflictOf == note.id }
        switch copies.count {
        case 1:
            guard let copy = try await device.notes.note(id: copies[0].id) else {
                throw CLIError.data("note \(note.id) has no conflict copy")
            }
            return copy
        case 0: throw CLIError.data("note \(note.id) has no conflict copy")
        default:
            let ids = copies.map { String($0.id.description.prefix(8)) }.joined(separator: ", ")
            throw CLIError.data("note \(note.id) has \(copies.count) conflict copies (\(ids)); name one of them")
        }
    }
}
