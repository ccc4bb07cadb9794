import Foundation

/// Real photos for the tests that drive the built `quire`: a JPEG of random pixels (as
/// incompressible as a camera's), written by libvips's `vips` command, with the EXIF a camera
/// writes (make, model, time taken) and, when asked, a GPS position, written by exiftool.
///
/// Both programs come from scripts/setup.sh (Debian's libvips-tools and
/// libimage-exiftool-perl). exiftool shares no code with libvips, so reading the tags back
/// with it checks what `quire` did with an independent reader.
public enum TestPhotoFile {
    /// Where the photos with a location were taken (the Eiffel Tower), as exiftool writes it.
    public static let latitude = 48.8584
    public static let longitude = 2.2945
    /// The camera make every test photo carries: kept when the location is removed.
    public static let make = "QuireTestCamera"

    /// Writes a 4:3 JPEG of about `megabytes` MB to `file` (JPEG of random pixels at quality 90
    /// takes about 1.87 bytes a pixel) and returns its size in bytes.
    @discardableResult
    public static func jpeg(at file: URL, megabytes: Double, location: Bool) async throws -> Int {
        let pixels = megabytes * 1_000_000 / 1.87
        let width = max(16, Int((pixels * 4 / 3).squareRoot()))
        return try await jpeg(at: file, width: width, height: max(12, width * 3 / 4), location: location)
    }

    /// Writes a `width` × `height` JPEG of random pixels to `file`; returns its size in bytes.
    @discardableResult
    public static func jpeg(at file: URL, width: Int, height: Int, location: Bool) async throws -> Int {
        let raw = file.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        try writeRandomPixels(count: width * height * 3, to: raw)
        try await InstalledProgram.run(
            "vips", ["rawload", raw.path, "\(file.path)[Q=90]", "\(width)", "\(height)", "3"], timeout: 300)
        var tags = ["-Make=\(make)", "-Model=Model 1", "-DateTimeOriginal=2026:06:01 12:00:00"]
        if location {
            tags += [
                "-GPSLatitude=\(latitude)", "-GPSLatitudeRef=N", "-GPSLongitude=\(longitude)", "-GPSLongitudeRef=E",
                "-XMP:GPSLatitude=\(latitude)", "-XMP:GPSLongitude=\(longitude)",
            ]
        }
        try await InstalledProgram.run("exiftool", ["-q", "-overwrite_original"] + tags + [file.path], timeout: 300)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Every tag exiftool reads in `file`, as "Group:Name" → value (`-G1 -n`).
    public static func tags(of file: URL) async throws -> [String: String] {
        let output = try await InstalledProgram.run("exiftool", ["-json", "-a", "-G1", "-n", file.path])
        guard let list = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]],
            let first = list.first
        else { throw ServerProcessError(message: "exiftool printed no JSON for \(file.path)") }
        return first.mapValues { "\($0)" }
    }

    /// The location tags exiftool finds in `file` (its GPS group and XMP's GPS properties).
    public static func locationTags(of file: URL) async throws -> [String] {
        try await tags(of: file).keys.filter { $0.hasPrefix("GPS:") || $0.contains(":GPS") }.sorted()
    }

    /// Random bytes, a megabyte at a time, so a 300 MB raw image never sits in memory whole.
    private static func writeRandomPixels(count: Int, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ServerProcessError(message: "cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        var left = count
        while left > 0 {
            let piece = min(left, 1 << 20)
            var words = [UInt64](repeating: 0, count: (piece + 7) / 8)
            for index in words.indices { words[index] = generator.next() }
            try handle.write(contentsOf: words.withUnsafeBytes { Data($0.prefix(piece)) })
            left -= piece
        }
    }
}
