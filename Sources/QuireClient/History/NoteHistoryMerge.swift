import Foundation
import QuireDomain

/// One list of a note's texts from the server's history and this device's: pure.
///
/// Two devices, one note: the phone's edit was refused by the server, then replaced by a later
/// save. The server's history has versions 1 to 3; the phone's has its texts of versions 2 and 3
/// and the refused one. The list is versions 3, 2, 1 and the refused text (as `L<n>`), by time.
public enum NoteHistoryMerge {
    /// The server's versions (nil: not known, such as offline), then this device's texts the
    /// server does not have (no version number it holds, no text equal to one of its versions),
    /// newest first. Without the server's versions, this device's texts as they are; a text
    /// this device never confirmed with the server (its unsent current text) is left out: it is
    /// the note itself.
    public static func merged(server: [NoteVersion]?, local: [NoteVersion]) -> [NoteVersion] {
        let kept = local.filter { $0.localID != 0 }
        guard let server else {
            return newestFirst(deduplicated(kept))
        }
        let numbers = Set(server.compactMap(\.version))
        let texts = Set(server.map(\.text))
        let only = kept.filter { version in
            if let number = version.version, numbers.contains(number) { return false }
            return !texts.contains(version.text)
        }
        return newestFirst(
            server
                + deduplicated(only).map {
                    var local = $0; local.version = nil; return local
                })
    }

    /// The first of each text (the newest, as `local` comes newest first).
    private static func deduplicated(_ versions: [NoteVersion]) -> [NoteVersion] {
        var seen: Set<NoteText> = []
        return versions.filter { seen.insert($0.text).inserted }
    }

    /// The current text first, then by time; at equal times in the given order (each source
    /// lists its texts newest first).
    private static func newestFirst(_ versions: [NoteVersion]) -> [NoteVersion] {
        versions.enumerated().sorted { lhs, rhs in
            if lhs.element.isCurrent != rhs.element.isCurrent { return lhs.element.isCurrent }
            if lhs.element.savedAt != rhs.element.savedAt { return lhs.element.savedAt > rhs.element.savedAt }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
