import Foundation

/// A temporary directory for one test, with a source folder and an output folder, removed at the end.
struct Scratch: ~Copyable {
    let root: URL
    var output: URL { root.appendingPathComponent("prepared") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { root.appendingPathComponent(name) }

    /// The names `prepare` left in the output folder.
    var outputNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).sorted()
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
