import Foundation

/// The most one account may keep (issue 12, item 8): live notes, and the bytes of their payloads
/// as sent (tombstones and history do not count; history has its own cap). A write that would
/// pass either is refused in the same transaction that would have stored it.
public struct NoteQuota: Sendable, Equatable {
    /// The most live notes. Default 100,000.
    public var maxNotes: Int
    /// The most payload bytes of the live notes together. Default 1 GiB.
    public var maxBytes: Int

    public init(maxNotes: Int = 100_000, maxBytes: Int = 1 << 30) {
        self.maxNotes = max(0, maxNotes)
        self.maxBytes = max(0, maxBytes)
    }

    /// No limit: what a caller without an account's settings (a tool, a test) writes with.
    public static let unlimited = NoteQuota(maxNotes: .max, maxBytes: .max)

    /// Whether a put must count the account's notes to be checked.
    var isUnlimited: Bool { self == .unlimited }

    /// Which limit a refused write would have passed.
    public enum Limit: Sendable, Equatable {
        case notes(Int)
        case bytes(Int)
    }

    /// The limit putting `payload` over `current` (nil or a tombstone: a new live note) would
    /// pass, for an account holding `notes` live notes with `bytes` of payload.
    func limitPassed(notes: Int, bytes: Int, replacing current: StoredNote?, with payload: String) -> Limit? {
        let replaced = current.flatMap { $0.deleted ? nil : $0.payload?.utf8.count ?? 0 }
        return limitPassed(notes: notes, bytes: bytes, replacedBytes: replaced, newBytes: payload.utf8.count)
    }

    /// The limit a put would pass: an account holding `notes` live notes with `bytes` of payload,
    /// writing `newBytes` over a note of `replacedBytes` (nil when the put adds a live note).
    func limitPassed(notes: Int, bytes: Int, replacedBytes: Int?, newBytes: Int) -> Limit? {
        if replacedBytes == nil, notes >= maxNotes { return .notes(maxNotes) }
        if newBytes > (replacedBytes ?? 0), bytes - (replacedBytes ?? 0) > maxBytes - newBytes {
            return .bytes(maxBytes)
        }
        return nil
    }
}
