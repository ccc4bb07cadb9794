import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens `$EDITOR` (or `vi`) on a file holding the note: the title on the first line, a blank
/// line, then the body.
///
/// The editor runs in this process's foreground process group, on the same terminal, as git runs
/// it: a terminal editor (vi, nano) owns the screen and the keyboard until it exits. (Foundation's
/// `Process` starts children in a process group of their own, which the terminal stops as soon as
/// they read a key.) While it runs, this process ignores Ctrl-C and Ctrl-\ (they reach the editor,
/// which decides); a SIGTERM removes the file before exiting. The file holds the note's plain text:
/// it is made 0600 inside the device's own directory, never in the shared temporary directory, and
/// removed on every way out. An editor that exits non-zero saves nothing.
struct TextEditor {
    /// The device's data directory.
    let directory: URL

    /// The note's title and body after the editor, or as they were when the file is unchanged
    /// (a title with a line break from another device would otherwise come back split). Throws
    /// for an editor that failed, or one that saved bytes that are not UTF-8: then nothing is
    /// saved and the file stays for the person to convert, its path in the error.
    func edit(title: String, body: String) throws -> (title: String, body: String) {
        let file = directory.appendingPathComponent("edit-\(UUID().uuidString.prefix(8)).txt")
        // The file ends with a line break even when the body does not (an editor or a script that
        // appends a line would otherwise join it to the last one); taken off again below.
        let written = Data((title + "\n\n" + body + (body.isEmpty || body.hasSuffix("\n") ? "" : "\n")).utf8)
        try Self.writePrivately(written, to: file)
        let cleanup = FileCleanup(file)
        defer { cleanup.run() }
        // Held while the editor runs: a file of an edit whose process died holds no lock, and
        // the next edit says where it is (``leftovers(in:)``).
        let marker = open(file.path, O_RDONLY | O_CLOEXEC)
        if marker >= 0 { flock(marker, LOCK_EX) }
        defer { if marker >= 0 { close(marker) } }
        let editor = ProcessInfo.processInfo.environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let status = try Self.runInForeground(
            ["/bin/sh", "-c", "\(editor) \"$1\"", "editor", file.path], onTerminate: cleanup)
        guard status == 0 else {
            throw CLIError(
                code: .failure, message: "the editor '\(editor)' exited with \(status); nothing was saved")
        }
        let data = try Data(contentsOf: file)
        if data == written { return (title, body) }
        guard let text = String(validating: data, as: UTF8.self) else {
            cleanup.keep()
            throw CLIError(
                code: .dataError,
                message: "the editor saved text that is not UTF-8; nothing was saved. What you typed is kept in "
                    + "\(file.path): convert it (iconv -f latin1 -t utf-8 FILE), then quire edit ID --body - < FILE",
                hint: "")
        }
        var edited = Self.parse(text)
        // Editors end a file with a newline (vim's 'fixeol'); the note did not have one.
        if !body.hasSuffix("\n"), edited.body.hasSuffix("\n") { edited.body.removeLast() }
        return edited
    }

    /// First line → title; the rest, after one separating blank line, → body.
    static func parse(_ text: String) -> (title: String, body: String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        let title = String(text[..<newline])
        var body = Substring(text[text.index(after: newline)...])
        if body.hasPrefix("\n") { body = body.dropFirst() }
        return (title, String(body))
    }

    /// The files of edits whose `quire` died with the editor open (killed, the machine off): the
    /// note's text as it was, and what was typed into it since. They are the person's: pointed
    /// out, never applied nor removed, except by `quire logout`, which erases the device.
    static func leftovers(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("edit-") && $0.hasSuffix(".txt") }.sorted().compactMap { name in
            let file = directory.appendingPathComponent(name)
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return nil }  // an edit open now
            flock(descriptor, LOCK_UN)
            return file
        }
    }

    /// Creates `file` (it must not exist) readable by its owner only, and writes `data`.
    static func writePrivately(_ data: Data, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError(code: .ioError, message: "could not create \(file.path) for the editor")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    /// Runs `arguments` (a path and its arguments) in this process's process group with the same
    /// standard input, output and error, and waits for it. Returns its exit status (128 + the
    /// signal for a killed editor).
    static func runInForeground(_ arguments: [String], onTerminate cleanup: FileCleanup) throws -> Int32 {
        // Ctrl-C and Ctrl-\ go to the whole foreground group: the editor handles them; we wait.
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        terminate.setEventHandler {
            cleanup.run()
            exit(143)
        }
        terminate.resume()
        defer {
            terminate.cancel()
            signal(SIGTERM, SIG_DFL)
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }

        return try ForegroundProcess.spawn(arguments, what: "the editor").wait()
    }
}

/// Removes a file once, from whichever way out gets there first (the normal return, or a SIGTERM
/// handler on another thread).
final class FileCleanup: @unchecked Sendable {
    // `done` is guarded by `lock`; `file` never changes.
    private let file: URL
    private let lock = NSLock()
    private var done = false

    init(_ file: URL) {
        self.file = file
    }

    /// The file stays: nothing removes it after this (what it holds is the person's to take).
    func keep() {
        lock.withLock { done = true }
    }

    func run() {
        let first = lock.withLock {
            defer { done = true }
            return !done
        }
        guard first else { return }
        unlink(file.path)
    }
}
