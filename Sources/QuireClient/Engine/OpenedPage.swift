import Foundation
import QuireDomain
import QuireWire

/// A page of the feed, fetched, decoded and opened off the database actor: what a pull applies.
struct OpenedPage: Sendable {
    var page: ChangesPageDTO
    /// The notes whose payloads opened, in the page's order.
    var notes: [RemoteNote]
    /// This device's own writes sent without payload, to confirm.
    var own: [ListedOwnWrite]
    /// Payloads that did not open (promise 6: reported and skipped).
    var undecryptable: Int

    private enum Entry: Sendable {
        case note(RemoteNote)
        case own(ListedOwnWrite)
        case undecryptable
    }

    /// Opens every payload of `page`: with `lanes` > 1, that many slices of it at once (AES-GCM
    /// on 2 KB takes a few microseconds, so a page of 500 splits well across the cores). The
    /// order of the notes is the page's either way. Cancelling the caller stops no slice midway;
    /// they are short.
    static func open(_ page: ChangesPageDTO, codec: PayloadCodec, lanes: Int) async -> OpenedPage {
        let changes = page.changes
        let lanes = max(1, min(lanes, changes.count / 64))
        var entries: [Entry] = []
        if lanes == 1 {
            entries = changes.map { entry($0, codec: codec) }
        } else {
            let size = (changes.count + lanes - 1) / lanes
            let slices = stride(from: 0, to: changes.count, by: size).map {
                Array(changes[$0..<min($0 + size, changes.count)])
            }
            var opened = [[Entry]](repeating: [], count: slices.count)
            await withTaskGroup(of: (Int, [Entry]).self) { group in
                for (index, slice) in slices.enumerated() {
                    group.addTask { (index, slice.map { entry($0, codec: codec) }) }
                }
                for await (index, slice) in group { opened[index] = slice }
            }
            entries = opened.flatMap { $0 }
        }
        var result = OpenedPage(page: page, notes: [], own: [], undecryptable: 0)
        result.notes.reserveCapacity(entries.count)
        for entry in entries {
            switch entry {
            case .note(let note): result.notes.append(note)
            case .own(let write): result.own.append(write)
            case .undecryptable: result.undecryptable += 1
            }
        }
        return result
    }

    private static func entry(_ dto: NoteChangeDTO, codec: PayloadCodec) -> Entry {
        // This device's own write, sent back without its payload: nothing to apply, only (in a
        // first listing) a version to confirm. One that cannot be checked (no id, a tombstone)
        // gets no tag: it fails the check, and the page comes again with payloads.
        if dto.ownWrite == true {
            let checkable = !dto.deleted && dto.payload == nil
            return .own(
                ListedOwnWrite(
                    id: NoteID(dto.id) ?? NoteID(), version: dto.version,
                    versionTag: checkable ? dto.versionTag : nil))
        }
        do {
            return .note(try NotesSyncEngine.remoteNote(from: dto, codec: codec))
        } catch {
            return .undecryptable
        }
    }
}
