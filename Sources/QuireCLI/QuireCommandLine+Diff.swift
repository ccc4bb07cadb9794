import Foundation
import QuireClient
import QuireDomain

// MARK: - diff

extension QuireCommandLine {
    /// `quire diff ID`: the original against its conflict copy, as a unified diff of title and
    /// body, each side labelled by where it was typed ("this device", "typed on laptop").
    func diff(_ arguments: Arguments) async throws {
        let id = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        let copy = try await conflictCopy(for: id, in: device)
        guard let originalID = copy.conflictOf else {
            throw CLIError.data("note \(copy.id) is not a conflict copy")
        }
        let original = try await device.notes.note(id: originalID)
        let theirs = original.map { [$0.title, ""] + Self.lines($0.body) } ?? []
        let mine = [ConflictPolicy.originalTitle(fromCopyTitle: copy.title), ""] + Self.lines(copy.body)
        let originalSide = try await side(of: originalID, in: device)
        let copySide = try await side(of: copy.id, in: device)
        console.out("--- original \(originalID.short) (\(originalSide))")
        console.out("+++ copy \(copy.id.short) (\(copySide))")
        for line in UnifiedDiff.lines(from: theirs, to: mine) { console.out(line) }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
