import Foundation
import QuireClient
import QuireDomain

// MARK: - history, show --version, restore

extension QuireCommandLine {
    /// A note's texts as `history` lists them (see ``NoteHistoryListing``), with the line to say
    /// when the server's part is missing.
    struct HistoryListing {
        var listing: NoteHistoryListing
        /// Why the server's history is missing, for a line on stderr; nil when it is there or
        /// this device is not signed in.
        var serverProblem: String?

        var id: NoteID { listing.id }
        var versions: [NoteVersion] { listing.versions }
    }

    func history(_ arguments: Arguments) async throws {
        let text = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        let reader = try await device.makeHistoryReader()
        let listing = try await historyListing(text, in: device, reader: reader)
        if let problem = listing.serverProblem { console.err("quire: \(problem)") }
        if arguments.flag("json") {
            console.json(encoded: try NoteVersionJSON.list(listing.versions))
            return
        }
        for version in listing.versions { console.out(HistoryText.line(for: version)) }
        let short = listing.id.short
        console.out("Show one: quire show \(short) --version N; make it current: quire restore \(short) --version N")
    }

    /// Reads the note's history from the server (when signed in) and this device. Throws
    /// ``CLIError`` (65) when neither has the note.
    func historyListing(_ text: String, in device: QuireDevice, reader: NoteHistoryReader?) async throws
        -> HistoryListing
    {
        let id = try await resolveAnyNote(text, in: device, reader: reader)
        let listing = try await NoteHistoryListing.read(id, database: device.database, reader: reader)
        var problem = listing.serverError.map {
            "the server's history could not be read (\(Self.withoutRawCodes($0.message))); "
                + "showing this device's texts only"
        }
        if listing.unreadable > 0 {
            problem = "\(listing.unreadable) version(s) on the server could not be opened with this account's key"
        }
        guard !listing.versions.isEmpty else {
            throw CLIError.data(
                "note \(id.short) has no earlier texts on this device"
                    + (listing.server == nil && reader != nil && problem == nil ? " or the server" : "")
                    + (problem.map { " (\($0))" } ?? ""))
        }
        return HistoryListing(listing: listing, serverProblem: problem)
    }

    /// `show ID --version N`: that version's title, a blank line and its body.
    func showVersion(_ text: String, reference: String) async throws {
        let device = try openDevice()
        let listing = try await historyListing(text, in: device, reader: try await device.makeHistoryReader())
        let version = try Self.version(reference, in: listing)
        console.out(version.title)
        console.out("")
        console.out(version.body)
    }

    func restore(_ arguments: Arguments) async throws {
        let text = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        let reader = try await device.makeHistoryReader()
        guard let reference = arguments.options["version"] else {
            try await restoreFromTrash(text, in: device, reader: reader)
            return
        }
        let listing = try await historyListing(text, in: device, reader: reader)
        let version = try Self.version(reference, in: listing)
        let name = Self.name(of: listing.id, title: version.title)
        guard try await listing.listing.restore(version, in: device.database) else {
            console.out("\(name) already has that text; nothing to restore.")
            return
        }
        console.out(
            "Restored version \(version.reference) of \(name) (\(version.device), "
                + "\(HistoryText.time(version.savedAt))) as its current text; the text it replaced stays in "
                + "'quire history \(listing.id.short)'. 'quire sync' sends it.")
    }

    /// `restore ID` without a version: a note from the trash, with the last text it had.
    private func restoreFromTrash(_ text: String, in device: QuireDevice, reader: NoteHistoryReader?) async throws {
        let trash = try await trashListing(in: device, reader: reader)
        let id = try await resolveAnyNote(text, in: device, reader: reader, trash: trash.entries)
        guard let entry = trash.entries.first(where: { $0.id == id }) else {
            let short = id.short
            if try await device.notes.note(id: id) != nil {
                throw CLIError.usage(
                    "note \(short) is not deleted; to bring back an earlier text: quire restore \(short) "
                        + "--version N (see quire history \(short))")
            }
            throw CLIError.data("note \(short) is not in the trash (see quire trash)")
        }
        try await NoteTrashListing.restore(entry, in: device.database)
        console.out(
            "Restored \(Self.name(of: id, title: entry.title)) from the trash; 'quire sync' brings it back on "
                + "your other devices.")
    }

    /// The version `reference` names in `listing` (`5`, or `L12`); a usage error when it is not
    /// a version's name, a data error when the note has no such version.
    static func version(_ reference: String, in listing: HistoryListing) throws -> NoteVersion {
        let wanted = reference.uppercased()
        guard let number = Int(wanted.hasPrefix("L") ? String(wanted.dropFirst()) : wanted), number >= 1,
            !wanted.hasPrefix("+"), !wanted.hasPrefix("L+")
        else {
            throw CLIError.usage(
                "--version takes a version from 'quire history ID' (such as 5, or L12 for a text only this "
                    + "device kept), not '\(reference)'")
        }
        let name = wanted.hasPrefix("L") ? "L\(number)" : String(number)
        guard let version = listing.versions.first(where: { $0.reference == name }) else {
            let short = listing.id.short
            throw CLIError.data("note \(short) has no version \(reference); see quire history \(short)")
        }
        return version
    }

    /// Finds a note by full id or a unique start or end of it (4+ characters) among the live notes, this
    /// device's deleted ones, and the server's trash (read when needed and signed in).
    func resolveAnyNote(
        _ text: String, in device: QuireDevice, reader: NoteHistoryReader?, trash: [TrashEntry]? = nil
    ) async throws -> NoteID {
        let needle = text.lowercased()
        if let id = NoteID(needle) { return id }
        guard needle.count >= 4 else {
            throw CLIError.data("no note with id '\(text)' (give at least 4 characters of the id; see 'quire ls')")
        }
        var ids = Set(await allSummaries(device).map(\.id))
        ids.formUnion(try await device.database.localTrash().map(\.id))
        var matches = ids.filter { $0.isNamed(by: needle) }
        if matches.isEmpty {
            let entries: [TrashEntry]
            if let trash {
                entries = trash
            } else {
                entries = try await trashListing(in: device, reader: reader).entries
            }
            matches = Set(entries.map(\.id).filter { $0.isNamed(by: needle) })
        }
        switch matches.count {
        case 1: return matches.first!
        case 0: throw CLIError.data("no note with id '\(text)'; see 'quire ls' or 'quire trash'")
        default: throw CLIError.data("'\(text)' matches \(matches.count) notes; give more of the id")
        }
    }
}
