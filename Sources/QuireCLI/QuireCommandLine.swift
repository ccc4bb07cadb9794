import Foundation
import QuireClient
import QuireDomain
import QuireSQLite

/// Parses the command line, opens the device, runs one command, and maps every failure to one line
/// on stderr and an exit code.
struct QuireCommandLine: Sendable {
    let console = Console()
    private var words: [String]
    /// `--verbose` (or `-v`) anywhere before `--`: raw error codes are shown.
    let verbose: Bool
    private var dataDirectory: URL?
    /// What `quire trip photo add` prepares a photo with: location removal and a thumbnail
    /// (``ProcessedPhoto``, QuireMedia's libvips or ImageIO).
    var photoPreparer: any PhotoPreparing = ProcessedPhoto()

    init(arguments: [String]) {
        // --data-dir is global and may stand anywhere on the line.
        var remaining: [String] = []
        var directory: String?
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--data-dir", index + 1 < arguments.count {
                directory = arguments[index + 1]
                index += 2
                continue
            }
            if word.hasPrefix("--data-dir=") {
                directory = String(word.dropFirst("--data-dir=".count))
                index += 1
                continue
            }
            remaining.append(word)
            index += 1
        }
        self.words = remaining
        verbose = remaining.prefix { $0 != "--" }.contains { $0 == "--verbose" || $0 == "-v" }
        let environment = ProcessInfo.processInfo.environment
        if let path = directory ?? environment["QUIRE_HOME"], !path.isEmpty {
            dataDirectory = URL(fileURLWithPath: path)
        }
    }

    func run() async -> ExitCode {
        do {
            try await dispatch()
            return .success
        } catch let error as CLIError {
            if !error.message.isEmpty { console.err("quire: \(error.message)") }
            if let hint = error.hint ?? usageHint(error), !hint.isEmpty { console.err(hint) }
            return error.code
        } catch let error as SQLiteError {
            console.err("quire: the local database failed: \(error.message). Check the disk and --data-dir.")
            return .ioError
        } catch let error as AccountError {
            console.err("quire: \(describe(error))")
            return Self.exitCode(for: error)
        } catch let error as SecretFileError {
            console.err("quire: \(error.description)")
            return .noPermission
        } catch {
            console.err("quire: \(error)")
            return .failure
        }
    }

    private func dispatch() async throws {
        guard let name = words.first else {
            console.err(HelpText.overview)
            throw CLIError(code: .usage, message: "no command given", hint: "")
        }
        let rest = Array(words.dropFirst())
        switch name {
        case "--help", "-h": console.out(HelpText.overview)
        case "--version": console.out(HelpText.version)
        // `trip` reads its own subcommands and their options (QuireCommandLine+Trips.swift).
        case "trip": try await trip(rest)
        default:
            let command = try Self.command(named: name)
            if Arguments.asksForHelp(rest) {
                console.out(HelpText.help(for: command))
                return
            }
            do {
                try await command.run(self, try Arguments(rest, for: command))
            } catch var error as CLIError where command.failureCode != nil && error.code != .failure {
                error.code = command.failureCode!
                throw error
            }
        }
    }

    /// Where a usage error's reader finds the usage: the command's own help, when there is one.
    private func usageHint(_ error: CLIError) -> String? {
        guard error.code == .usage else { return nil }
        if let name = words.first, CommandTable.command(named: name) != nil {
            return "Run 'quire \(name) --help' for its usage."
        }
        return "Run 'quire help' for usage."
    }

    // MARK: - Shared helpers

    func openDevice() throws -> QuireDevice {
        let directory =
            dataDirectory
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".quire")
        try PrivateFolder.create(
            directory, what: "the data directory", advice: ". Choose another with --data-dir or $QUIRE_HOME")
        DeviceUseLock.holdShared(directory)
        do {
            return try QuireDevice(directory: directory, photoPieceBytes: photoPieceBytes)
        } catch let error as SQLiteError {
            throw CLIError(
                code: .ioError,
                message: "cannot open the notes database in \(directory.path): \(error.message)")
        }
    }

    /// `QUIRE_PHOTO_PIECE_KIB`: the bytes of one photo upload PATCH or download GET, in KiB (4096
    /// by default; at most the server's `--upload-chunk-mib`). For slow or metered links, and
    /// for tests that stop an upload part way.
    private var photoPieceBytes: Int {
        ProcessInfo.processInfo.environment["QUIRE_PHOTO_PIECE_KIB"].flatMap(Int.init).map { max(1, $0) * 1024 }
            ?? QuireDevice.defaultPhotoPieceBytes
    }

    /// All live notes with their whole bodies (for `ls --json`).
    func allNotes(_ device: QuireDevice) async -> [Note] {
        for await notes in device.notes.notes() { return notes }
        return []
    }

    /// All live notes as list rows: titles and previews, no whole bodies.
    func allSummaries(_ device: QuireDevice) async -> [NoteSummary] {
        for await summaries in device.notes.summaries() { return summaries }
        return []
    }

    func currentStatus(_ device: QuireDevice) async -> SyncStatus {
        for await status in device.status.status() { return status }
        return SyncStatus()
    }

    /// Finds a live note by full id or by a unique start or end of it (4+ characters: a list shows
    /// the last 8, ``NoteID/short``), with its whole body.
    func resolveNote(_ text: String, in device: QuireDevice) async throws -> Note {
        let needle = text.lowercased()
        if let id = NoteID(needle), let note = try await device.notes.note(id: id) { return note }
        guard needle.count >= 4 else {
            throw CLIError.data("no note with id '\(text)' (give at least 4 characters of the id; see 'quire ls')")
        }
        let matches = await allSummaries(device).filter { $0.id.isNamed(by: needle) }
        switch matches.count {
        case 1:
            guard let note = try await device.notes.note(id: matches[0].id) else { break }
            return note
        case 0: break
        default: throw CLIError.data("'\(text)' matches \(matches.count) notes; give more of the id")
        }
        // A deleted note is in the trash: say so, and how to get it back.
        if let trashed = try? await device.database.localTrash().first(where: { $0.id.isNamed(by: needle) }) {
            let title = trashed.title.isEmpty ? "" : " \"\(TerminalText.oneLine(trashed.title))\""
            throw CLIError.data(
                "note \(trashed.id.short)\(title) is in the trash (deleted); bring it back with: "
                    + "quire restore \(trashed.id.short)")
        }
        throw CLIError.data("no note with id '\(text)'; see 'quire ls'")
    }

    /// `--body -` reads standard input to its end.
    func bodyArgument(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard value == "-" else { return value }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CLIError(
                code: .dataError,
                message: "the text on standard input is not UTF-8; nothing was saved. "
                    + "Convert it first, for example: iconv -f latin1 -t utf-8 FILE | quire ... --body -",
                hint: "")
        }
        return text
    }

    /// A title given with `--title`: one line (the editor's file and every list show a title as
    /// its first line, and a line break would move the rest into the body on the next edit).
    func titleArgument(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard !value.contains(where: \.isNewline) else {
            throw CLIError.usage("a title is one line; put the rest in --body")
        }
        return value
    }
}
