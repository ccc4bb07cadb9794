import QuireClient

/// The words of a sync's progress line: "Sending 1,200 of 8,302 notes…", "Receiving 4,000 of
/// 10,002 notes…" ("Receiving 4,000 notes…" when the server gave no total).
enum ProgressLine {
    static func text(for progress: SyncProgress) -> String {
        let verb = progress.phase == .sending ? "Sending" : "Receiving"
        let of = progress.total.map { " of \(grouped($0))" } ?? ""
        return "\(verb) \(grouped(progress.done))\(of) \(progress.total == 1 ? "note" : "notes")…"
    }

    /// Thousands separated by commas, whatever the locale (the rest of the CLI's text is English).
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}

/// One progress event of `quire sync --json --progress`, a line on stderr.
struct ProgressEvent: Encodable {
    var event = "progress"
    var phase: String
    var done: Int
    var total: Int?
    var finished: Bool

    init(_ progress: SyncProgress) {
        phase = progress.phase.rawValue
        done = progress.done
        total = progress.total
        finished = progress.finished
    }
}
