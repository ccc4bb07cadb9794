import Foundation
import QuireMedia

/// Trip photos on the device (issue 16 part 4): `PhotoProcessor.prepare` on a 12 MP JPEG beside
/// libvips' own `vipsthumbnail` command in the same run, with and without location removal, and
/// the peak memory of preparing a 48 MP photo in a child process.
///
/// The photos are made at the start with the `vips` command (Perlin noise in three bands, so the
/// JPEG has texture like a photo rather than flat colour) and given GPS tags with exiftool.
enum PhotoBenchmark {
    static let name = "photos"

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        guard let vips = Child.which("vips"), let vipsthumbnail = Child.which("vipsthumbnail") else {
            return [
                .notMeasured(name, "photo thumbnail", reason: "needs vips and vipsthumbnail (libvips-tools)")
            ]
        }
        guard let exiftool = Child.which("exiftool") else {
            return [.notMeasured(name, "photo thumbnail", reason: "needs exiftool (libimage-exiftool-perl)")]
        }
        let rounds = context.options.quick ? 3 : 9
        let directory = try context.directory("photos")
        progress("photos: making a 12 MP and a 48 MP JPEG with GPS tags")
        let photo = try makePhoto(width: 4000, height: 3000, vips: vips, exiftool: exiftool, in: directory)
        let large = try makePhoto(width: 8000, height: 6000, vips: vips, exiftool: exiftool, in: directory)
        let output = directory.appendingPathComponent("out")
        let processor = PhotoProcessor()
        _ = try processor.prepare(photo, keepLocation: true, into: output)  // libvips starts once, untimed

        progress("photos: \(rounds) rounds of each")
        var keep = Samples()
        var strip = Samples()
        var thumbnailTool = Samples()
        var copyTool = Samples()
        var startUp = Samples()
        for _ in 0..<rounds {
            startUp.append(try measure { try check(vipsthumbnail, ["--vips-version"]) }.1)
            keep.append(try measure { try processor.prepare(photo, keepLocation: true, into: output) }.1)
            strip.append(try measure { try processor.prepare(photo, keepLocation: false, into: output) }.1)
            thumbnailTool.append(
                try measure {
                    try check(
                        vipsthumbnail,
                        [photo.path, "-s", "320", "-o", output.appendingPathComponent("tool-%s.jpg[Q=80,strip]").path])
                }.1)
            copyTool.append(
                try measure {
                    try check(vips, ["copy", photo.path, output.appendingPathComponent("tool-copy.jpg[Q=92]").path])
                }.1)
        }
        let started = try MediaChild.run(large, into: output, mode: "none")
        let prepared = try MediaChild.run(large, into: output, mode: "strip")
        try? FileManager.default.removeItem(at: output)

        let peakMB = Double(prepared.peakKiB ?? 0) / 1024
        let baseMB = Double(started.peakKiB ?? 0) / 1024
        let decodedMB = Double(8000 * 6000 * 3) / 1_048_576
        return [
            timed(
                "thumbnail of a 12 MP JPEG (prepare, location kept: thumbnail + byte copy), median of \(rounds)",
                keep, baseline: thumbnailTool, baselineName: "vipsthumbnail -s 320",
                note: "the baseline includes starting the vipsthumbnail process and libvips: "
                    + "`vipsthumbnail --vips-version` alone took \(Figure.milliseconds(startUp.median)) (median), "
                    + "so its thumbnail itself took about "
                    + "\(Figure.milliseconds(thumbnailTool.median - startUp.median))"),
            timed(
                "prepare of a 12 MP JPEG with GPS (thumbnail + re-encode without location), median of \(rounds)",
                strip, baseline: Samples(zip(thumbnailTool.durations, copyTool.durations).map { $0 + $1 }),
                baselineName: "vipsthumbnail + vips copy Q=92",
                note: "the baseline is two processes: the thumbnail and a full decode and encode"),
            BenchRow(
                benchmark: name, label: "peak memory preparing an 8000 × 6000 JPEG with GPS (child VmHWM)",
                measured: String(format: "%.1f MiB", peakMB),
                baseline: String(format: "%.1f MiB idle child", baseMB),
                ratio: baseMB > 0 ? peakMB / baseMB : nil,
                target: String(format: "< %.0f MiB (one decoded copy)", decodedMB), met: peakMB < decodedMB,
                note: String(format: "prepare took %.2f s in the child", prepared.seconds)),
        ]
    }

    private static func timed(
        _ label: String, _ samples: Samples, baseline: Samples, baselineName: String, note: String
    ) -> BenchRow {
        BenchRow(
            benchmark: name, label: label, measured: Figure.milliseconds(samples.median),
            baseline: "\(Figure.milliseconds(baseline.median)) \(baselineName)",
            ratio: samples.median.seconds / max(baseline.median.seconds, 1e-9), note: note)
    }

    /// A JPEG of `width` × `height` with texture and GPS tags.
    private static func makePhoto(width: Int, height: Int, vips: String, exiftool: String, in directory: URL) throws
        -> URL
    {
        var bands: [String] = []
        for seed in 1...3 {
            let noise = directory.appendingPathComponent("perlin-\(seed).v").path
            let band = directory.appendingPathComponent("band-\(seed).v").path
            try check(vips, ["perlin", noise, "\(width)", "\(height)", "--cell-size", "48", "--seed", "\(seed)"])
            try check(vips, ["linear", noise, band, "127", "128", "--uchar"])
            bands.append(band)
        }
        let joined = directory.appendingPathComponent("joined.v").path
        try check(vips, ["bandjoin", bands.joined(separator: " "), joined])
        let photo = directory.appendingPathComponent("photo-\(width)x\(height).jpg")
        try check(vips, ["copy", joined, photo.path + "[Q=90]"])
        try check(
            exiftool,
            [
                "-q", "-overwrite_original", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                "-GPSLongitudeRef=E", "-Make=QuireBench", photo.path,
            ])
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasSuffix(".v") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        return photo
    }

    private static func check(_ program: String, _ arguments: [String]) throws {
        let (status, _) = try Child.run(program, arguments)
        guard status == 0 else {
            throw BenchFailure("\(URL(fileURLWithPath: program).lastPathComponent) exited \(status)")
        }
    }
}
