import Foundation
import QuireDomain

/// One line of a note's history: which text, when, where it was typed, how long, and its start.
public struct NoteHistoryRow: Identifiable, Equatable, Sendable {
    /// The version's reference (`5`, `L12`), what ``NoteHistoryViewModel/restore(_:)`` takes.
    public let id: String
    /// "Version 5", "Version 5 (current)", or "Kept on this device only".
    public let label: String
    /// "10:42" today, "3 Mar 2025 at 10:42" before.
    public let time: String
    /// "This device", the device's name, or "Unknown device".
    public let device: String
    /// "340 characters".
    public let size: String
    /// The first line with text, title first; "Empty note" when there is none.
    public let firstLine: String
    public let isCurrent: Bool
    /// Every version but the current one can be made current again.
    public var canRestore: Bool { !isCurrent }

    public init(_ version: NoteHistoryVersion, formatter: NotesDateFormatter) {
        id = version.reference
        let number = "Version \(version.reference)"
        if version.reference.hasPrefix("L") {
            label = "Kept on this device only"
        } else {
            label = version.isCurrent ? number + " (current)" : number
        }
        time = formatter.syncTime(version.savedAt)
        device = Self.device(version.typedOn)
        let count = version.text.title.count + version.text.body.count
        size = count == 1 ? "1 character" : "\(count) characters"
        let line = NoteRow.preview(of: version.text.title + "\n" + version.text.body)
        firstLine = line.isEmpty ? "Empty note" : line
        isCurrent = version.isCurrent
    }

    /// Where a text was typed, for people.
    static func device(_ typedOn: String?) -> String {
        guard let typedOn else { return "This device" }
        let name = typedOn.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "Unknown device" : name
    }
}
