import Foundation
import QuireTestSupport
import Testing

/// Promise 1 with real processes: `quire new` and `quire edit`, several at once on one device,
/// SIGKILLed at random moments before, during and after their commit.
@Suite struct KilledSavesTests {
    /// A save's text: title and body both carry the label, so half a save shows as a mismatch.
    struct Text: Equatable {
        var label: String
        var title: String { "T \(label)" }
        var body: String { "B \(label)\nsecond line of \(label)" }

        /// The label of a listed note, or nil when its title and body are not one save's text.
        static func of(_ note: ListedNote) -> Text? {
            guard note.title.hasPrefix("T ") else { return nil }
            let text = Text(label: String(note.title.dropFirst(2)))
            return text.body == note.body ? text : nil
        }
    }

    /// One process of a round and what it tried to save.
    enum Save {
        case new(Text)
        case edit(id: String, from: Text, to: Text)
    }

    @Test func everyReturnedSaveIsThereOnceAndNoKilledSaveIsHalfThere() async throws {
        var random = CrashRandom()
        let rerun = random.rerun
        let root = try TemporaryDirectory(prefix: "quire-crash-saves")
        defer { root.remove() }
        let device = CrashDevice(root, "phone")
        // Open the database once first: this test is about saves, not about the first open.
        try await device.ok("ls")

        var known: [String: Text] = [:]  // id → its text, as last read back
        var nextLabel = 0
        var kills = 0
        var killedAfterCommit = 0
        var rounds = 0
        var finishedRuns: [TimeInterval] = []  // how long saves that were not killed took
        while kills < 70 && rounds < 120 {
            rounds += 1
            // Given: four saves at once, each killed after a random delay (some never).
            var saves: [Save] = []
            var editable = Array(known.keys).shuffled(using: &random)
            for _ in 0..<4 {
                if let id = editable.popLast(), Bool.random(using: &random), let from = known[id] {
                    nextLabel += 1
                    saves.append(.edit(id: id, from: from, to: Text(label: "\(from.label)e\(nextLabel)")))
                } else {
                    nextLabel += 1
                    saves.append(.new(Text(label: "n\(nextLabel)")))
                }
            }
            // Kill anywhere from launch to a little after a typical save ends on this machine now.
            let typical = finishedRuns.sorted().dropFirst(finishedRuns.count / 2).first ?? 0.040
            let delays = saves.map { _ in
                Int.random(in: 0..<7, using: &random) == 0 ? nil : random.delay(upTo: typical * 1.3)
            }
            let outcomes = try await withThrowingTaskGroup(of: (Int, CrashDevice.Outcome).self) { group in
                for (index, save) in saves.enumerated() {
                    let arguments: [String]
                    switch save {
                    case .new(let text): arguments = ["new", "--title", text.title, "--body", text.body]
                    case .edit(let id, _, let to): arguments = ["edit", id, "--title", to.title, "--body", to.body]
                    }
                    group.addTask { (index, try await device.run(arguments, killAfter: delays[index])) }
                }
                var outcomes: [Int: CrashDevice.Outcome] = [:]
                for try await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
            for outcome in outcomes.values where !outcome.killed {
                #expect(outcome.result.exitCode == 0, "\(outcome.result.stderr); \(rerun)")
            }
            kills += outcomes.values.filter(\.killed).count
            finishedRuns += outcomes.values.filter(\.succeeded).map(\.elapsed)
            finishedRuns = finishedRuns.suffix(40)

            // When: the device is opened again.
            let notes = try await device.notes()

            // Then: every note is one whole save, with its pending change; nothing is doubled.
            var byID: [String: Text] = [:]
            for note in notes {
                let text = Text.of(note)
                #expect(text != nil, "half a save: \(note.title) / \(note.body); \(rerun)")
                #expect(note.state == "pending" && note.pendingChanges == 1, "\(note); \(rerun)")
                #expect(byID[note.id] == nil, "note \(note.id) listed twice; \(rerun)")
                byID[note.id] = text
            }
            let labels = byID.values.map(\.label)
            #expect(Set(labels).count == labels.count, "a save was applied twice: \(labels.sorted()); \(rerun)")
            #expect(try await device.pendingCount() == notes.count, "\(rerun)")

            var expectedNew: [String: Text] = [:]  // acknowledged new id → its text
            var possibleNew: [String: Text] = [:]  // label → text, for any new of this round
            var edits: [String: (from: Text, to: Text, acknowledged: Bool)] = [:]
            for (index, save) in saves.enumerated() {
                let outcome = try #require(outcomes[index])
                switch save {
                case .new(let text):
                    possibleNew[text.label] = text
                    if outcome.killed, byID.values.contains(text) { killedAfterCommit += 1 }
                    if outcome.succeeded {
                        #expect(UUID(uuidString: outcome.result.output) != nil, "\(rerun)")
                        expectedNew[outcome.result.output] = text
                    }
                case .edit(let id, let from, let to):
                    edits[id] = (from, to, outcome.succeeded)
                    if outcome.killed, byID[id] == to { killedAfterCommit += 1 }
                }
            }
            for (id, text) in expectedNew {
                #expect(byID[id] == text, "returned save \(text.label) (\(id)) is not there; \(rerun)")
            }
            for (id, text) in known {
                let now = byID[id]
                if let edit = edits[id] {
                    if edit.acknowledged {
                        #expect(
                            now == edit.to, "returned edit \(edit.to.label) lost: \(String(describing: now)); \(rerun)")
                    } else {
                        #expect(now == edit.from || now == edit.to, "\(id): \(String(describing: now)); \(rerun)")
                    }
                } else {
                    #expect(now == text, "untouched note \(id) changed or vanished; \(rerun)")
                }
            }
            for (id, text) in byID where known[id] == nil {
                #expect(possibleNew[text.label] == text, "a note nobody saved: \(text.label); \(rerun)")
                if let returned = expectedNew.first(where: { $0.value == text }) {
                    #expect(returned.key == id, "\(text.label) has another id than printed; \(rerun)")
                }
            }
            known = byID
        }
        #expect(kills >= 70, "only \(kills) kills in \(rounds) rounds; \(rerun)")
        // Some kills must land after the commit, or the test never saw a save survive a kill.
        #expect(killedAfterCommit > 0, "no kill landed after a commit; \(rerun)")
        print(
            "KilledSavesTests: \(kills) kills (\(killedAfterCommit) after the commit) in \(rounds) rounds, "
                + "\(known.count) notes; seed \(random.seed)")
    }
}
