import Dispatch
import Foundation

/// SIGINT and SIGTERM, turned from process-killing signals into an awaitable event.
///
/// Lives outside `main.swift` because its handlers run on a dispatch queue: closures in
/// `main.swift` would be MainActor-isolated and trap there (PLATFORM.md).
final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    /// Starts catching SIGINT and SIGTERM; from now on they no longer end the process by themselves.
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        let queue = DispatchQueue(label: "quire-server.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Returns when the first of the signals arrives.
    func wait() async {
        for await _ in stream { return }
    }
}
