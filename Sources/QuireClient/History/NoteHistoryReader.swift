import Foundation
import QuireDomain
import QuireWire

/// Reads what the server kept of notes (history and trash) and opens it on this device: the
/// server only ever holds sealed payloads. A payload that does not open is skipped and counted
/// (promise 6), never a crash.
public struct NoteHistoryReader: Sendable {
    private let api: any NoteHistoryAPI
    private let codec: any PayloadCodec
    private let ownDevice: DeviceLabel

    public init(api: any NoteHistoryAPI, codec: any PayloadCodec, ownDevice: DeviceLabel) {
        self.api = api
        self.codec = codec
        self.ownDevice = ownDevice
    }

    /// The server's state of a note and every version it keeps, newest first.
    public struct History: Sendable {
        public var version: Int
        public var versionTag: String?
        public var deleted: Bool
        public var versions: [NoteVersion]
        /// Versions whose payload did not open with this account's key.
        public var unreadable: Int
    }

    /// A deleted note the server can give back, with the last text it had.
    public struct Trashed: Sendable {
        public var id: NoteID
        public var version: Int
        public var versionTag: String?
        public var deletedAt: Date
        public var last: NoteVersion
        public var conflictOf: NoteID?
    }

    /// Every version of `id` the server keeps, page by page. Throws ``NotesAPIError`` (`refused`
    /// with status 404 when this account has no such note).
    public func history(of id: NoteID) async throws -> History {
        var page = try await api.history(of: id, before: nil, limit: WireRoutes.maxPageLimit)
        var history = History(
            version: page.version, versionTag: page.versionTag, deleted: page.deleted, versions: [], unreadable: 0)
        while true {
            for opened in await openAll(page.versions, of: id) {
                if let opened { history.versions.append(opened) } else { history.unreadable += 1 }
            }
            guard page.hasMore, let last = page.versions.last?.version else { break }
            page = try await api.history(of: id, before: last, limit: WireRoutes.maxPageLimit)
        }
        return history
    }

    /// The deleted notes the server can still give back, most recently deleted first, and how
    /// many it listed whose last text did not open.
    public func trash() async throws -> (notes: [Trashed], unreadable: Int) {
        let page = try await api.trash(limit: WireRoutes.maxPageLimit)
        var notes: [Trashed] = []
        var unreadable = 0
        for entry in page.notes {
            guard let id = NoteID(entry.id), let content = try? codec.open(entry.last.payload, noteID: id) else {
                unreadable += 1
                continue
            }
            notes.append(
                Trashed(
                    id: id, version: entry.version, versionTag: entry.versionTag, deletedAt: entry.deletedAt,
                    last: version(entry.last, content), conflictOf: content.conflictOf))
        }
        return (notes, unreadable)
    }

    /// Opens a page's versions on every core, in the page's order; nil for one that does not
    /// open. Each payload opens on its own (base64, AES-GCM, the note's JSON: about 40 µs for a
    /// 2 KB note), and 500 of them one after another were a third of a 500-version listing.
    /// Cancelling the caller does not stop a lane: each runs to its end, a few milliseconds.
    private func openAll(_ versions: [NoteVersionDTO], of id: NoteID) async -> [NoteVersion?] {
        let lanes = min(ProcessInfo.processInfo.activeProcessorCount, versions.count / Self.versionsPerLane)
        guard lanes > 1 else { return versions.map { open($0, of: id) } }
        let size = (versions.count + lanes - 1) / lanes
        return await withTaskGroup(of: (Int, [NoteVersion?]).self) { group in
            for lane in 0..<lanes {
                let part = Array(versions[(lane * size)..<min((lane + 1) * size, versions.count)])
                group.addTask { (lane, part.map { open($0, of: id) }) }
            }
            var parts = [[NoteVersion?]](repeating: [], count: lanes)
            for await (lane, opened) in group { parts[lane] = opened }
            return parts.flatMap { $0 }
        }
    }

    /// Below this many versions a lane of its own costs more than it saves.
    private static let versionsPerLane = 32

    private func open(_ dto: NoteVersionDTO, of id: NoteID) -> NoteVersion? {
        guard let content = try? codec.open(dto.payload, noteID: id) else { return nil }
        return version(dto, content)
    }

    private func version(_ dto: NoteVersionDTO, _ content: NoteContent) -> NoteVersion {
        let here = content.typedOn?.id == ownDevice.id
        return NoteVersion(
            version: dto.version, savedAt: dto.savedAt, title: content.title, body: content.body,
            typedOn: here ? nil : content.typedOn, typedHere: here, isCurrent: dto.current == true)
    }
}
