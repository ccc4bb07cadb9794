import Foundation
import QuireClient
import QuireDomain

// MARK: - diff

extension QuireCommandLine {
    /// `quire diff ID`: the original (the server's text, "theirs") against its conflict copy
    /// (this device's text, "mine"), as a unified diff of title and body.
    func diff(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: [])
        let id = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        let copy = try await conflictCopy(for: id, in: device)
        guard let originalID = copy.conflictOf else {
            throw CLIError.data("note \(copy.id) is not a conflict copy")
        }
        let original = try await device.notes.note(id: originalID)
        let theirs = original.map { [$0.title, ""] + Self.lines($0.body) } ?? []
        let mine = [ConflictPolicy.originalTitle(fromCopyTitle: copy.title), ""] + Self.lines(copy.body)
        console.out("--- theirs (note \(String(originalID.description.prefix(8))))")
        console.out("+++ mine (copy \(String(copy.id.description.prefix(8))))")
        for line in UnifiedDiff.lines(from: theirs, to: mine) { console.out(line) }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
