import Foundation

/// A real typing history from `shared/data/editing-traces` (josephg/editing-traces, CC BY 4.0).
///
/// Each patch is `(position, deleteCount, insert)` in Unicode scalars; replaying every patch in
/// order from `startContent` gives `endContent`.
struct EditingTrace {
    struct Patch {
        var position: Int
        var deleteCount: Int
        var insert: [Unicode.Scalar]
    }

    var startContent: String
    var endContent: String
    var patches: [Patch]

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder holding the traces: `$QUIRE_TRACES_DIR`, else `../shared/data/editing-traces`
    /// or `shared/data/editing-traces` seen from the working directory, else `/work/shared/...`.
    static func directory() throws -> URL {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["QUIRE_TRACES_DIR"] {
            candidates.append(explicit)
        }
        candidates += [
            "../shared/data/editing-traces", "../../shared/data/editing-traces",
            "shared/data/editing-traces", "/work/shared/data/editing-traces",
        ]
        for path in candidates where FileManager.default.fileExists(atPath: path + "/README.md") {
            return URL(fileURLWithPath: path)
        }
        throw LoadError(
            description: "editing traces not found; set QUIRE_TRACES_DIR to shared/data/editing-traces")
    }

    /// Loads `name` (e.g. `automerge-paper`) by decompressing it with `/usr/bin/gzip -dc`.
    ///
    /// Throws ``LoadError`` when the file is missing, gzip fails, or the JSON is not a trace.
    static func load(_ name: String) throws -> EditingTrace {
        let file = try directory().appendingPathComponent("\(name).json.gz")
        let json = try gunzip(file)
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let start = object["startContent"] as? String, let end = object["endContent"] as? String,
            let txns = object["txns"] as? [[String: Any]]
        else { throw LoadError(description: "\(file.path) is not an editing trace") }
        var patches: [Patch] = []
        for txn in txns {
            for case let patch as [Any] in (txn["patches"] as? [Any]) ?? [] where patch.count == 3 {
                guard let position = (patch[0] as? NSNumber)?.intValue,
                    let deleteCount = (patch[1] as? NSNumber)?.intValue,
                    let insert = patch[2] as? String
                else { throw LoadError(description: "bad patch in \(file.path)") }
                patches.append(
                    Patch(position: position, deleteCount: deleteCount, insert: Array(insert.unicodeScalars)))
            }
        }
        return EditingTrace(startContent: start, endContent: end, patches: patches)
    }

    private static func gunzip(_ file: URL) throws -> Data {
        let (status, data) = try Child.run("/usr/bin/gzip", ["-dc", file.path])
        guard status == 0 else {
            throw LoadError(description: "gzip -dc \(file.path) failed (\(status))")
        }
        return data
    }

    // MARK: - Replaying

    /// The text after the first `count` patches.
    func text(afterPatches count: Int) -> String {
        var buffer = ScalarGapBuffer(Array(startContent.unicodeScalars))
        for patch in patches.prefix(count) { buffer.apply(patch) }
        return buffer.string
    }

    /// The first patch index at which the text is at least `length` scalars long.
    func firstIndex(reachingLength length: Int) -> Int? {
        var current = startContent.unicodeScalars.count
        for (index, patch) in patches.enumerated() {
            if current >= length { return index }
            let deleted = min(patch.deleteCount, max(0, current - patch.position))
            current += patch.insert.count - deleted
        }
        return current >= length ? patches.count : nil
    }

    static func string(_ scalars: [Unicode.Scalar]) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }
}

/// A text of Unicode scalars with a movable gap, so a replay of local typing edits costs what the
/// cursor moves, not the text's length per keystroke.
struct ScalarGapBuffer {
    private var storage: [Unicode.Scalar]
    private var gapStart: Int
    private var gapEnd: Int

    init(_ scalars: [Unicode.Scalar]) {
        storage = scalars + Array(repeating: " ", count: 1024)
        gapStart = scalars.count
        gapEnd = storage.count
    }

    var count: Int { storage.count - (gapEnd - gapStart) }

    var scalars: [Unicode.Scalar] { Array(storage[..<gapStart] + storage[gapEnd...]) }

    var string: String { EditingTrace.string(scalars) }

    /// Applies a patch, clamping its position and delete count to the text.
    mutating func apply(_ patch: EditingTrace.Patch) {
        let position = min(max(patch.position, 0), count)
        moveGap(to: position)
        gapEnd = min(gapEnd + max(patch.deleteCount, 0), storage.count)
        if gapEnd - gapStart < patch.insert.count { grow(by: patch.insert.count + count / 2 + 1024) }
        for scalar in patch.insert {
            storage[gapStart] = scalar
            gapStart += 1
        }
    }

    private mutating func moveGap(to position: Int) {
        while gapStart > position {
            gapStart -= 1
            gapEnd -= 1
            storage[gapEnd] = storage[gapStart]
        }
        while gapStart < position {
            storage[gapStart] = storage[gapEnd]
            gapStart += 1
            gapEnd += 1
        }
    }

    private mutating func grow(by extra: Int) {
        let tail = Array(storage[gapEnd...])
        let newGap = (gapEnd - gapStart) + extra
        storage.removeSubrange(gapStart...)
        storage += Array(repeating: " ", count: newGap)
        storage += tail
        gapEnd = gapStart + newGap
    }
}
