import Foundation
import QuireMerge

// MARK: - merge-file

extension QuireCommandLine {
    /// `quire merge-file [-p] [-q] [-L LABEL]... MINE BASE THEIRS`: ``ThreeWayMerge``, the sync's
    /// merge, on three files. Needs no device. Exit 0 clean, 1 clash (markers in the output).
    func mergeFile(_ arguments: Arguments) throws {
        let paths = try arguments.expectPositionals(["mine", "base", "theirs"])
        let labels = arguments.values["label", default: []]
        guard labels.count <= 3 else { throw CLIError.usage("-L is given more than three times") }
        let texts = try paths.map { try Self.readText($0) }
        let mineLabel = labels.count > 0 ? labels[0] : paths[0]
        let theirsLabel = labels.count > 2 ? labels[2] : paths[2]
        switch ThreeWayMerge.merge(base: texts[1], local: texts[0], server: texts[2]) {
        case .clean(let merged):
            FileHandle.standardOutput.write(Data(merged.utf8))
        case .clash:
            let marked = ConflictMarkers.text(
                mine: texts[0], theirs: texts[2], mineLabel: mineLabel, theirsLabel: theirsLabel)
            FileHandle.standardOutput.write(Data(marked.utf8))
            throw CLIError(
                code: .failure,
                message: arguments.flag("quiet")
                    ? "" : "merge-file: the two sides clash; both are between conflict markers",
                hint: "")
        }
    }

    /// The file's text; an error with `code` when it cannot be read or is not UTF-8.
    static func readText(_ path: String, failing code: ExitCode = .trouble) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError(code: code, message: "cannot read \(path)", hint: "")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CLIError(code: code, message: "\(path) is not UTF-8 text", hint: "")
        }
        return text
    }
}
