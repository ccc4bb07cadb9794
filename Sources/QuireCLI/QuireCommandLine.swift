import Foundation
import QuireClient
import QuireDomain
import QuireSQLite

/// Parses the command line, opens the device, runs one command, and maps every failure to one line
/// on stderr and an exit code.
struct QuireCommandLine {
    let console = Console()
    private var words: [String]
    private var dataDirectory: URL?

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
            console.err("quire: \(error.message)")
            if error.code == .usage { console.err("Run 'quire --help' for usage.") }
            return error.code
        } catch let error as SQLiteError {
            console.err("quire: the local database failed: \(error.message). Check the disk and --data-dir.")
            return .ioError
        } catch let error as AccountError {
            console.err("quire: \(error)")
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
        guard let command = words.first else {
            console.err(Usage.text)
            throw CLIError(code: .usage, message: "no command given")
        }
        let rest = Array(words.dropFirst())
        switch command {
        case "--help", "-h", "help":
            console.out(Usage.text)
        case "--version":
            console.out("quire 0.1.0")
        case "new": try await newNote(rest)
        case "edit": try await editNote(rest)
        case "rm": try await removeNote(rest)
        case "ls": try await listNotes(rest)
        case "show": try await showNote(rest)
        case "register": try await register(rest)
        case "login": try await login(rest)
        case "logout": try await logout(rest)
        case "passwd": try await passwd(rest)
        case "sync": try await sync(rest)
        case "watch": try await watch(rest)
        case "status": try await status(rest)
        case "conflicts": try await conflicts(rest)
        case "diff": try await diff(rest)
        case "resolve": try await resolve(rest)
        case "trip": try await trip(rest)
        default:
            throw CLIError.usage("unknown command '\(command)'")
        }
    }

    // MARK: - Shared helpers

    func openDevice() throws -> QuireDevice {
        let directory =
            dataDirectory
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".quire")
        do {
            return try QuireDevice(directory: directory)
        } catch let error as SQLiteError {
            throw CLIError(
                code: .ioError,
                message: "cannot open the notes database in \(directory.path): \(error.message)")
        }
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

    /// Finds a live note by full id or unique prefix (4+ characters), with its whole body.
    func resolveNote(_ text: String, in device: QuireDevice) async throws -> Note {
        let needle = text.lowercased()
        if let id = NoteID(needle), let note = try await device.notes.note(id: id) { return note }
        guard needle.count >= 4 else {
            throw CLIError.data("no note with id '\(text)' (give at least 4 characters of the id; see 'quire ls')")
        }
        let matches = await allSummaries(device).filter { $0.id.description.hasPrefix(needle) }
        switch matches.count {
        case 1:
            guard let note = try await device.notes.note(id: matches[0].id) else { break }
            return note
        case 0: break
        default: throw CLIError.data("'\(text)' matches \(matches.count) notes; give more of the id")
        }
        throw CLIError.data("no note with id '\(text)'; see 'quire ls'")
    }

    /// `--body -` reads standard input to its end.
    func bodyArgument(_ value: String?) -> String? {
        guard let value else { return nil }
        guard value == "-" else { return value }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }
}
