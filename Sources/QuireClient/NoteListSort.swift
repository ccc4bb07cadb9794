import Foundation

/// The orders the whole list can be read in, a page at a time, each by an index of its own.
public enum NoteListSort: Sendable {
    /// Most recently changed first, then by id (`notes_list`).
    case updated
    /// Most recently created first, then by id (`notes_by_creation`).
    case created
    /// By ``QuireDomain/TitleSortKey`` (as Finder sorts names), equal titles newest first, then by
    /// id (`notes_by_title`).
    case title
}
