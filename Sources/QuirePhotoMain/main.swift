import Foundation
import QuireMedia
import QuireWire

// quire-photo: the one process that decodes photos (see PhotoHelperAnswer for why it is apart
// from quire). `quire trip photo add` runs it; people do not need to.
let usage = """
    usage: quire-photo prepare [--keep-location] SOURCE DIRECTORY

    Writes the upload copy of the photo SOURCE (its location metadata, EXIF GPS and XMP's GPS
    properties, removed unless --keep-location) and a JPEG thumbnail of at most 320 px into
    DIRECTORY, and prints one JSON object describing them (or, with exit status 65, 66, 73 or
    69, why it could not: {"error": CODE, "message": TEXT}). SOURCE is only read.
    quire trip photo add runs it; see quire trip photo --help.
    """

/// Prints `answer` as one JSON line and exits with `status`.
func finish(_ answer: PhotoHelperAnswer, status: Int32) -> Never {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(answer)) ?? Data(#"{"error":"cannot_write","message":"no JSON"}"#.utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
    exit(status)
}

var words = Array(CommandLine.arguments.dropFirst())
if words.first == "--help" || words.first == "-h" || words.first == "help" {
    print(usage)
    exit(0)
}
guard words.first == "prepare" else {
    FileHandle.standardError.write(Data("quire-photo: unknown command\n\n\(usage)\n".utf8))
    exit(64)
}
words.removeFirst()
let keepLocation = words.contains("--keep-location")
let paths = words.filter { $0 != "--keep-location" && $0 != "--" }
guard paths.count == 2 else {
    FileHandle.standardError.write(Data("quire-photo: give SOURCE and DIRECTORY\n\n\(usage)\n".utf8))
    exit(64)
}
do {
    let image = try PhotoProcessor().prepare(
        URL(fileURLWithPath: paths[0]), keepLocation: keepLocation, into: URL(fileURLWithPath: paths[1]))
    finish(
        PhotoHelperAnswer(
            photo: image.photo.path, thumbnail: image.thumbnail.path, mediaType: image.mediaType, width: image.width,
            height: image.height),
        status: 0)
} catch let refusal as PhotoProcessingError {
    // sysexits: the data (65), a missing input (66), an output that cannot be made (73), the
    // library (69).
    let status: Int32 =
        switch refusal.code {
        case .unreadable: 66
        case .cannotWrite: 73
        case .libraryUnavailable: 69
        default: 65
        }
    finish(PhotoHelperAnswer(error: refusal.code.description, message: refusal.description), status: status)
} catch {
    finish(PhotoHelperAnswer(error: "cannot_write", message: "\(error)"), status: 73)
}
