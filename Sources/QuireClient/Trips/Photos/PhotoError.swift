import Foundation

/// Why a photo could not be added, uploaded or downloaded (a server's refusal of an upload is
/// a ``NotesAPIError``, kept on the photo as its reason).
public typealias PhotoError = KindedError<PhotoErrorKind>

/// What a ``PhotoError`` is about.
public enum PhotoErrorKind: Hashable, Sendable {
    /// The file to add cannot be read (missing, a folder, no permission).
    case unreadableFile
    /// The ``PhotoPreparing`` implementation refused the file (not an image it reads, or
    /// location it cannot remove).
    case notPrepared
    /// No photo with that id on this device, or several match a prefix.
    case unknownPhoto
    /// A sealed file of a queued photo went missing from the data directory.
    case missingFile
    /// The photo is not on the server (yet): not uploaded, removed, or not shared with this account.
    case notOnServer
    /// What was downloaded does not open or does not match its SHA-256: a changed, cut or
    /// reordered chunk. Nothing of it is shown or written.
    case damaged
    /// The photo field holds a value this version cannot read.
    case unreadableAttachment
}
