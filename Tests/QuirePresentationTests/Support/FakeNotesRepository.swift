import Foundation
import QuireDomain

/// An in-memory `NotesRepository`: streams replay the current notes, then yield after each change;
/// saves and deletes are recorded. Tests change the notes "from elsewhere" with `store`/`remove`.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeNotesRepository: NotesRepository, @unchecked Sendable {
    struct Save: Equatable {
        let id: NoteID
        let title: String
        let body: String
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    private let lock = NSLock()
    private var stored: [NoteID: Note] = [:]
    private var subscribers: [UUID: AsyncStream<[Note]>.Continuation] = [:]
    private var recordedSaves: [Save] = []
    private var recordedDeletes: [NoteID] = []
    private var failNextSave = false
    private var tick: TimeInterval = 0

    init(_ notes: [Note] = []) {
        for note in notes { stored[note.id] = note }
    }

    var saves: [Save] { lock.withLock { recordedSaves } }
    var deletes: [NoteID] { lock.withLock { recordedDeletes } }
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    func note(_ id: NoteID) -> Note? { lock.withLock { stored[id] } }

    /// The ids of every stored note, sorted.
    var storedIDs: [NoteID] { lock.withLock { stored.keys.sorted() } }

    /// Makes the next save throw, as a failed disk write would.
    func failNextSaveOnce() { lock.withLock { failNextSave = true } }

    /// A change from elsewhere (sync): stores the note and publishes.
    func store(_ note: Note) {
        mutate { $0[note.id] = note }
    }

    /// A delete from elsewhere: removes the note and publishes.
    func remove(_ id: NoteID) {
        mutate { $0[id] = nil }
    }

    func notes() -> AsyncStream<[Note]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Note].self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.subscribers.removeValue(forKey: key) }
        }
        lock.withLock {
            subscribers[key] = continuation
            continuation.yield(list())
        }
        return stream
    }

    func save(id: NoteID, title: String, body: String) async throws {
        try lock.withLock {
            if failNextSave {
                failNextSave = false
                throw Failure()
            }
            recordedSaves.append(Save(id: id, title: title, body: body))
        }
        mutate { notes in
            notes[id] = Note(
                id: id, title: title, body: body, updatedAt: nextDate(),
                sync: .pending(changes: 1))
        }
    }

    func delete(_ id: NoteID) async throws {
        lock.withLock { recordedDeletes.append(id) }
        mutate { $0[id] = nil }
    }

    // MARK: - Inside the lock

    private func mutate(_ change: (inout [NoteID: Note]) -> Void) {
        lock.withLock {
            change(&stored)
            let current = list()
            for subscriber in subscribers.values { subscriber.yield(current) }
        }
    }

    private func list() -> [Note] {
        stored.values.sorted { ($0.updatedAt, $0.id) > ($1.updatedAt, $1.id) }
    }

    private func nextDate() -> Date {
        tick += 60
        return Date(timeIntervalSince1970: 1_741_003_200 + tick)  // after Harness.now
    }
}
