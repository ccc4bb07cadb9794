import Foundation

/// Opens `$EDITOR` (or `vi`) on a temporary file holding the note: the title on the first line,
/// a blank line, then the body.
struct TextEditor {
    func edit(title: String, body: String) throws -> (title: String, body: String) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-\(UUID().uuidString).txt")
        try Data((title + "\n\n" + body).utf8).write(to: file, options: .atomic)
        defer { try? FileManager.default.removeItem(at: file) }
        let editor = ProcessInfo.processInfo.environment["EDITOR"].flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "editor", file.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError(
                code: .failure,
                message: "the editor '\(editor)' exited with \(process.terminationStatus); nothing was saved")
        }
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        return Self.parse(text)
    }

    /// First line → title; the rest, after one separating blank line, → body.
    static func parse(_ text: String) -> (title: String, body: String) {
        guard let newline = text.firstIndex(of: "\n") else { return (text, "") }
        let title = String(text[..<newline])
        var body = Substring(text[text.index(after: newline)...])
        if body.hasPrefix("\n") { body = body.dropFirst() }
        return (title, String(body))
    }
}
