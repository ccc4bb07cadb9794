import Foundation

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "quire-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ component: String) -> URL { url.appendingPathComponent(component) }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
