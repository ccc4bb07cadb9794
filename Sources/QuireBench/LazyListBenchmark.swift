import Foundation
import QuireClient
import QuireDomain
import QuirePresentation

/// Opening the list at 1,000, 10,000 and 100,000 notes (seed 000: "a lazy list"): open
/// `NotesDatabase` and wait for the first value of `LocalNotesRepository.summaries(first: 100)`,
/// the window a list screen opens on (the first rows by the list index, and whether more follow);
/// and, the same way, the time until `NotesViewModel` shows its first rows. Baseline, interleaved
/// in the same rounds: open and wait for the first value of `summaries()`, every note's summary
/// (the path the list read before). Also the first page of the list by title (`quire ls --sort
/// title`), by its index. The OS page cache is warm, as in `cold-open`.
enum LazyListBenchmark {
    static let name = "lazy-list"
    /// The rows the view model opens on (its default page).
    static let firstScreen = 100

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let sizes = context.options.quick ? [500, 2_000] : [1_000, 10_000, 100_000]
        var rows: [BenchRow] = []
        for notes in sizes {
            rows += try await measure(context, notes: notes)
        }
        return rows
    }

    private static func measure(_ context: BenchContext, notes: Int) async throws -> [BenchRow] {
        let file = try context.directory("lazy-list-\(notes)").appendingPathComponent("device.sqlite")
        progress("lazy-list: filling a database with \(notes) notes")
        _ = try LocalStoreFixture.rawDatabase(at: file, count: notes, corpus: context.corpus)
        var window = Samples()
        var screen = Samples()
        var everything = Samples()
        var byTitle = Samples()
        var firstByTitle: Duration = .zero
        let rounds = notes >= 100_000 ? 7 : context.sizes.coldOpens
        for round in 0..<(1 + rounds) {
            let (shown, windowTime) = try await measureAsync { try await firstWindow(file) }
            let (rowsShown, screenTime) = try await measureAsync { try await firstScreenOfViewModel(file) }
            let (listed, fullTime) = try await measureAsync { try await wholeList(file) }
            let (paged, titleTime) = try await measureAsync { try await firstPageByTitle(file) }
            guard shown == min(notes, firstScreen), rowsShown == shown, listed == notes,
                paged == min(notes, titlePage)
            else {
                throw BenchFailure(
                    "lazy-list at \(notes): window \(shown), view model \(rowsShown), whole list \(listed), "
                        + "by title \(paged)")
            }
            guard round > 0 else {
                firstByTitle = titleTime
                continue
            }
            byTitle.append(titleTime)
            window.append(windowTime)
            screen.append(screenTime)
            everything.append(fullTime)
        }
        let count = Figure.count(notes)
        let row = { (label: String, samples: Samples, note: String) in
            BenchRow(
                benchmark: name, label: "\(label) at \(count) notes, median",
                measured: Figure.milliseconds(samples.median),
                baseline: "\(Figure.milliseconds(everything.median)) whole list",
                ratio: samples.median.seconds / everything.median.seconds, target: "< 50 ms",
                met: samples.median < .milliseconds(50), note: note)
        }
        return [
            row(
                "open to the list's first \(firstScreen) rows", window,
                "\(rounds) rounds after one warm-up; LocalNotesRepository.summaries(first: "
                    + "\(firstScreen)); p99 \(Figure.milliseconds(window.p99)), whole list p99 "
                    + "\(Figure.milliseconds(everything.p99))"),
            row(
                "open to the view model's first rows", screen,
                "NotesViewModel (page of \(firstScreen)) with the local repositories, "
                    + "from init to viewState.rows filled; p99 \(Figure.milliseconds(screen.p99))"),
            row(
                "open to the first \(titlePage) rows by title (`quire ls --sort title`)", byTitle,
                "LocalNotesRepository.summaryPage(sortedBy: .title); the warm-up read took "
                    + "\(Figure.milliseconds(firstByTitle)); p99 \(Figure.milliseconds(byTitle.p99))"),
        ]
    }

    /// Opens the database and returns how many rows the list's first window held.
    private static func firstWindow(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        for await window in repository.summaries(first: firstScreen) { return window.summaries.count }
        throw BenchFailure("the window stream finished without a value")
    }

    /// Opens the database and a view model on it, and returns how many rows it shows first.
    @MainActor
    private static func firstScreenOfViewModel(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let viewModel = NotesViewModel(
            notes: LocalNotesRepository(records: database),
            status: LocalSyncStatusRepository(records: database), syncConfigured: false,
            pageSize: firstScreen)
        let watch = Task { await viewModel.onAppear() }
        defer { watch.cancel() }
        let deadline = ContinuousClock.now + .seconds(30)
        while viewModel.viewState.rows.isEmpty {
            guard ContinuousClock.now < deadline else { throw BenchFailure("the view model showed no rows") }
            await Task.yield()
        }
        return viewModel.viewState.rows.count
    }

    /// The rows `quire ls --sort title` reads at a time.
    static let titlePage = 500

    /// Opens the database and reads the first page of the list by title.
    private static func firstPageByTitle(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        return try await repository.summaryPage(sortedBy: .title, after: nil, limit: titlePage).count
    }

    /// The path the list read before: every note's summary.
    private static func wholeList(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        for await summaries in repository.summaries() { return summaries.count }
        throw BenchFailure("the summaries stream finished without a value")
    }
}
