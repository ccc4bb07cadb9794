import Foundation
import QuireClient
import QuireSpawn
import QuireWire

/// The CLI's ``PhotoPreparing``: runs `quire-photo prepare` (QuireMedia's `PhotoProcessor`,
/// libvips here, ImageIO on Apple) in a process of its own, which writes the upload copy, with
/// its location removed unless the person passed `--keep-location`, and the 320 px thumbnail
/// companions see first.
///
/// Decoding stays out of `quire` on purpose (``PhotoHelperAnswer`` says why): a photo that
/// crashes a decoder ends that child, and `quire` reports it and queues nothing. The helper is
/// looked for beside the running `quire` (where `swift build` and an install put both), or at
/// `$QUIRE_PHOTO`.
struct ProcessedPhoto: PhotoPreparing {
    /// `quire-photo`, when found.
    let helper: URL?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        helper = Self.findHelper(environment: environment)
    }

    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
        guard let helper else {
            throw PhotoError(
                .notPrepared,
                "quire-photo, the program that prepares photos, is not installed beside quire "
                    + "(\(Self.ownDirectory?.path ?? "?")); reinstall quire with it (swift build puts both in "
                    + ".build/debug), or set QUIRE_PHOTO to its path")
        }
        let log = directory.appendingPathComponent("quire-photo.log")
        let arguments = ["prepare"] + (keepLocation ? ["--keep-location"] : []) + ["--", source.path, directory.path]
        let child: ChildProcess
        do {
            child = try ChildProcess(
                [helper.path] + arguments, stdout: .pipe, stderr: .file(log.path))
        } catch {
            throw PhotoError(.notPrepared, "cannot start \(helper.path): \(error)")
        }
        let output = (try? child.output?.readToEnd()) ?? Data()
        let status = child.wait()
        guard let answer = try? JSONDecoder().decode(PhotoHelperAnswer.self, from: output) else {
            let said = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").last.map(String.init)
            throw PhotoError(
                .notPrepared,
                "quire-photo stopped (exit status \(status)) while reading \(source.lastPathComponent)"
                    + (said.map { ": \($0)" } ?? "")
                    + "; nothing was queued. The file may be damaged: try another copy of the photo")
        }
        if let message = answer.message, answer.error != nil {
            throw PhotoError(.notPrepared, message)
        }
        guard let photo = answer.photo, let mediaType = answer.mediaType else {
            throw PhotoError(.notPrepared, "quire-photo answered without a photo for \(source.lastPathComponent)")
        }
        return PreparedPhoto(
            photo: URL(fileURLWithPath: photo), thumbnail: answer.thumbnail.map { URL(fileURLWithPath: $0) },
            mediaType: mediaType, width: answer.width ?? 0, height: answer.height ?? 0)
    }

    /// `$QUIRE_PHOTO`, else `quire-photo` beside this executable; nil when neither is one.
    static func findHelper(environment: [String: String]) -> URL? {
        let candidates =
            [environment["QUIRE_PHOTO"].map { URL(fileURLWithPath: $0) }]
            + [ownDirectory?.appendingPathComponent("quire-photo")]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The folder of the running `quire` (its real path: a symlink in `~/bin` points there).
    static var ownDirectory: URL? {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath
        return path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
    }
}
