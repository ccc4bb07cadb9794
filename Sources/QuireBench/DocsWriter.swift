import Foundation

/// Rewrites the results section of docs/benchmarks.md: everything between the two marker comments
/// is replaced; the prose around them is kept. A file without the markers gets them appended.
enum DocsWriter {
    static let begin = "<!-- results:begin (written by quire-bench --write-docs; do not edit by hand) -->"
    static let end = "<!-- results:end -->"

    /// Writes `section` between the markers of the file at `path` (created if missing).
    static func write(_ section: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let existing = (try? String(contentsOf: url, encoding: .utf8)) ?? "# Benchmarks\n"
        let block = "\(begin)\n\(section)\(end)"
        let updated: String
        if let start = existing.range(of: begin), let stop = existing.range(of: end),
            start.lowerBound < stop.lowerBound
        {
            updated = existing.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: block)
        } else {
            updated = existing + (existing.hasSuffix("\n") ? "\n" : "\n\n") + "## Results\n\n" + block + "\n"
        }
        try Data(updated.utf8).write(to: url, options: .atomic)
    }
}
