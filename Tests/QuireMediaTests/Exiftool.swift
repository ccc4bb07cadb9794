import Foundation
import QuireSpawn

/// Phil Harvey's exiftool (Debian's libimage-exiftool-perl, installed by scripts/setup.sh): a
/// metadata reader that shares no code with libvips or libexif, to check what the tests claim.
enum Exiftool {
    /// Every tag exiftool finds in `file`, as "Group:Name" → value (`-G1 -n`: the precise group,
    /// numbers unformatted).
    static func tags(of file: URL) throws -> [String: String] {
        let child = try ChildProcess(["exiftool", "-json", "-a", "-G1", "-n", file.path], stdout: .pipe)
        let data = (try child.output?.readToEnd()) ?? Data()
        let status = child.wait()
        guard status == 0 || status == 1 else {
            throw ExiftoolFailure(message: "exiftool exited \(status) on \(file.path)")
        }
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]], let first = list.first
        else { throw ExiftoolFailure(message: "exiftool printed no JSON for \(file.path)") }
        return first.mapValues { "\($0)" }
    }

    /// The tags exiftool reads as location: its GPS group, XMP's GPS properties, and the composite
    /// position it derives from them.
    static func locationTags(of file: URL) throws -> [String] {
        try tags(of: file).keys.filter { $0.hasPrefix("GPS:") || $0.contains(":GPS") }.sorted()
    }

    struct ExiftoolFailure: Error, CustomStringConvertible {
        var message: String
        var description: String {
            "\(message). Install exiftool with scripts/setup.sh (Debian: libimage-exiftool-perl)."
        }
    }
}
