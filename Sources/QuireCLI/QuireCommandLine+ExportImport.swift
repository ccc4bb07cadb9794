import Foundation
import QuireClient
import QuireDomain

// MARK: - export, import

extension QuireCommandLine {
    /// `quire export DIR`: one Markdown file per live note (conflict copies marked in their front
    /// matter), 0600 in a folder made 0700: they hold the notes' plain text. Never overwrites a
    /// file: a name already in the folder gets a number.
    func export(_ arguments: Arguments) async throws {
        let folder = URL(fileURLWithPath: try arguments.expectPositionals(["dir"])[0])
        let device = try openDevice()
        let notes = await allNotes(device)
        try PrivateFolder.create(folder, what: "the export folder")
        var names = ExportFileNames(existing: (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        for note in notes {
            let file = folder.appendingPathComponent(names.name(for: note.title))
            guard
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(MarkdownNote.render(note).utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CLIError(code: .ioError, message: "cannot write \(file.path)", hint: "")
            }
        }
        console.out("Exported \(Self.count(notes.count, "note")) to \(folder.path).")
    }

    /// `quire import PATH...`: `.md` and `.txt` files, and the ones inside folders, as new notes,
    /// one transaction per batch; a file whose title and body a live note already has is skipped.
    /// A file that cannot be read, or is not UTF-8 text, is named and left out; the others are
    /// imported, and the command then exits 65.
    func importNotes(_ arguments: Arguments) async throws {
        guard !arguments.positionals.isEmpty else { throw CLIError.usage("expected <path>..., got none") }
        let (files, skipped) = try Self.importableFiles(arguments.positionals)
        if !skipped.isEmpty {
            let names = skipped.prefix(3).joined(separator: ", ") + (skipped.count > 3 ? ", …" : "")
            console.err("quire: skipped \(Self.count(skipped.count, "file")) that are not .md or .txt: \(names)")
        }
        let device = try openDevice()
        var imported = 0
        var alreadyHere = 0
        var unreadable: [String] = []
        let batchSize = 200
        for start in stride(from: 0, to: files.count, by: batchSize) {
            let batch = files[start..<min(start + batchSize, files.count)]
            let texts = batch.compactMap { file -> NoteText? in
                do {
                    return MarkdownNote.parse(
                        try Self.readText(file.path, failing: .dataError), fileName: file.lastPathComponent)
                } catch {
                    unreadable.append(file.path)
                    return nil
                }
            }
            let outcome = try await device.database.importNotes(texts)
            imported += outcome.imported.count
            alreadyHere += outcome.alreadyHere
            if console.stderrIsTerminal, files.count > batchSize {
                console.progress("Importing \(start + batch.count) of \(files.count) files…")
            }
        }
        if console.stderrIsTerminal, files.count > batchSize { console.progress(nil) }
        let already = alreadyHere > 0 ? " (\(alreadyHere) already here)" : ""
        console.out("Imported \(Self.count(imported, "note"))\(already).")
        guard unreadable.isEmpty else {
            let names = unreadable.prefix(3).joined(separator: ", ") + (unreadable.count > 3 ? ", …" : "")
            throw CLIError(
                code: .dataError,
                message: "not imported: \(Self.count(unreadable.count, "file")) that could not be read or are not "
                    + "UTF-8 text: \(names). Convert them (iconv -f latin1 -t utf-8), then import them again.",
                hint: "")
        }
    }

    /// The files to import, in path order (folders searched all the way down), and the names of
    /// the others.
    static func importableFiles(_ paths: [String]) throws -> (files: [URL], skipped: [String]) {
        let kinds: Set<String> = ["md", "markdown", "txt"]
        var files: [URL] = []
        var skipped: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError(code: .ioError, message: "no such file or folder: \(path)", hint: "")
            }
            var found: [URL] = [URL(fileURLWithPath: path)]
            if isDirectory.boolValue {
                let walker = FileManager.default.enumerator(
                    at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey])
                found = (walker?.allObjects as? [URL] ?? [])
                    .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                    .sorted { $0.path < $1.path }
            }
            for file in found {
                if kinds.contains(file.pathExtension.lowercased()) {
                    files.append(file)
                } else {
                    skipped.append(file.lastPathComponent)
                }
            }
        }
        return (files, skipped)
    }

    /// "1 note", "3 notes".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
