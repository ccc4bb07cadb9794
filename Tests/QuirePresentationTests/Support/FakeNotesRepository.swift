import Foundation
import QuireDomain

/// An in-memory `NotesRepository`: streams replay the current notes, then yield after each change;
/// saves and deletes are recorded. Tests change the notes "from elsewhere" with `store`/`remove`.
///
/// It counts whole bodies handed out (`bodyReads`): one per `note(id:)` that finds a note, one per
/// copy `conflictCopies(of:)` returns, and one per note in every list a `notes()` stream yields. Summaries carry no whole body.
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

    struct ReadFailure: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    private let lock = NSLock()
    private var stored: [NoteID: Note] = [:]
    private var subscribers: [UUID: AsyncStream<[Note]>.Continuation] = [:]
    /// Whole lists (`summaries()`) and windows (`summaries(first:)`) alike: each is yielded to
    /// in the changing call, never from a task of its own, so a test's view model sees a change
    /// even while other tests hold every thread of the cooperative pool (the parallel pass does).
    private var summarySubscribers: [UUID: SummarySubscriber] = [:]
    private var recordedSaves: [Save] = []
    private var recordedEditedFrom: [NoteText?] = []
    private var recordedDeletes: [NoteID] = []
    private var failNextSave = false
    private var failNextRead = false
    private var failingSubscriptions = 0
    private var summariesSubscribed = 0
    private var windows: [Int] = []
    private var bodiesHandedOut = 0
    private var reads: [NoteID] = []
    private var tick: TimeInterval = 0

    init(_ notes: [Note] = []) {
        for note in notes { stored[note.id] = note }
    }

    var saves: [Save] { lock.withLock { recordedSaves } }
    /// What each save said its text was edited from, in order.
    var editedFrom: [NoteText?] { lock.withLock { recordedEditedFrom } }
    var deletes: [NoteID] { lock.withLock { recordedDeletes } }
    var subscriberCount: Int { lock.withLock { subscribers.count + summarySubscribers.count } }
    /// Whole bodies handed out so far, by `note(id:)` and by `notes()` streams.
    var bodyReads: Int { lock.withLock { bodiesHandedOut } }
    /// The ids `note(id:)` was asked for, in order.
    var noteReads: [NoteID] { lock.withLock { reads } }

    func note(_ id: NoteID) -> Note? { lock.withLock { stored[id] } }

    /// The ids of every stored note, sorted.
    var storedIDs: [NoteID] { lock.withLock { stored.keys.sorted() } }

    /// Makes the next save throw, as a failed disk write would.
    func failNextSaveOnce() { lock.withLock { failNextSave = true } }

    /// Makes the next `note(id:)` throw, as a failed database read would.
    func failNextReadOnce() { lock.withLock { failNextRead = true } }

    /// The sizes `summaries(first:)` was asked for, in order.
    var windowSizes: [Int] { lock.withLock { windows } }

    /// How many times `summaries()` was called.
    var summarySubscriptions: Int { lock.withLock { summariesSubscribed } }

    /// Ends every open summaries stream, as the database does when a read fails. Later
    /// subscriptions work again (unless `failSubscriptions` says otherwise).
    func endSummaryStreams() {
        let ended = lock.withLock {
            let ended = summarySubscribers.values
            summarySubscribers = [:]
            return ended
        }
        for subscriber in ended { subscriber.finish() }
    }

    /// The next `count` summaries streams end at once, with no value, as a read that keeps failing.
    func failSubscriptions(_ count: Int) { lock.withLock { failingSubscriptions = count } }

    /// A change from elsewhere (sync): stores the notes in one commit and publishes.
    func store(_ notes: Note...) {
        mutate { stored in
            for note in notes { stored[note.id] = note }
        }
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
            let current = list()
            bodiesHandedOut += current.count
            continuation.yield(current)
        }
        return stream
    }

    func summaries() -> AsyncStream<[NoteSummary]> {
        subscribeToSummaries { $0 }
    }

    /// The window as the protocol's default cuts it from `summaries()`, recording its size.
    func summaries(first count: Int) -> AsyncStream<NoteListWindow> {
        lock.withLock { windows.append(count) }
        return subscribeToSummaries { NoteListWindow(first: count, of: $0) }
    }

    func note(id: NoteID) async throws -> Note? {
        try lock.withLock {
            reads.append(id)
            if failNextRead {
                failNextRead = false
                throw ReadFailure()
            }
            let note = stored[id]
            if note != nil { bodiesHandedOut += 1 }
            return note
        }
    }

    /// The copies by id, as the database's conflict index finds them: wherever they sit in the
    /// list. Each counts as a whole body handed out.
    func conflictCopies(of id: NoteID) async throws -> [Note] {
        lock.withLock {
            let copies = list().filter { $0.conflictOf == id }
            bodiesHandedOut += copies.count
            return copies
        }
    }

    /// The fake does not merge: it records what each save said it was edited from, so tests can
    /// check the view model passes the draft's starting text (the database's merge is tested on
    /// the database).
    func save(id: NoteID, title: String, body: String, editedFrom: NoteText?) async throws {
        try lock.withLock {
            if failNextSave {
                failNextSave = false
                throw Failure()
            }
            recordedSaves.append(Save(id: id, title: title, body: body))
            recordedEditedFrom.append(editedFrom)
        }
        mutate { notes in
            notes[id] = Note(
                id: id, title: title, body: body, updatedAt: nextDate(),
                sync: .pending(changes: 1), conflictOf: notes[id]?.conflictOf)
        }
    }

    func delete(_ id: NoteID) async throws {
        lock.withLock { recordedDeletes.append(id) }
        mutate { $0[id] = nil }
    }

    private struct SummarySubscriber {
        let yield: ([NoteSummary]) -> Void
        let finish: () -> Void
    }

    /// A summaries stream that yields `shape(list)` now and after each change.
    private func subscribeToSummaries<Value: Sendable>(
        _ shape: @escaping @Sendable ([NoteSummary]) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let key = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.summarySubscribers.removeValue(forKey: key) }
        }
        let subscriber = SummarySubscriber(
            yield: { continuation.yield(shape($0)) }, finish: { continuation.finish() })
        let fails = lock.withLock {
            summariesSubscribed += 1
            if failingSubscriptions > 0 {
                failingSubscriptions -= 1
                return true
            }
            summarySubscribers[key] = subscriber
            subscriber.yield(list().map(NoteSummary.init))
            return false
        }
        if fails { continuation.finish() }
        return stream
    }

    // MARK: - Inside the lock

    private func mutate(_ change: (inout [NoteID: Note]) -> Void) {
        lock.withLock {
            change(&stored)
            let current = list()
            for subscriber in subscribers.values {
                bodiesHandedOut += current.count
                subscriber.yield(current)
            }
            let summaries = current.map(NoteSummary.init)
            for subscriber in summarySubscribers.values { subscriber.yield(summaries) }
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
