import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file side of ``ChunkedSealer/sealFile(at:to:key:chunkSize:)`` and
/// ``ChunkedOpener/openFile(at:to:key:)``: plain POSIX reads and writes of one chunk at a time,
/// and an output that appears whole or not at all (written to a temporary file beside it, made
/// durable, then renamed over it).
enum ChunkedFileIO {
    /// An input file opened for reading.
    final class Input {
        let path: String
        private let descriptor: Int32

        init(_ path: String) throws(ChunkedCipherError) {
            self.path = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ChunkedFileIO.failure(path) }
        }

        deinit { close(descriptor) }

        /// Up to `count` bytes: exactly `count` unless the file ends first.
        func read(upTo count: Int) throws(ChunkedCipherError) -> Data {
            var buffer = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = buffer.withUnsafeMutableBytes { raw in
                    Foundation.read(descriptor, raw.baseAddress! + filled, count - filled)
                }
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else { throw ChunkedFileIO.failure(path) }
                if got == 0 { break }
                filled += got
            }
            return Data(buffer.prefix(filled))
        }
    }

    /// An output being written to a temporary file beside its destination (mode 0600).
    final class Output {
        let destination: String
        private let temporary: String
        private var descriptor: Int32

        init(_ destination: String) throws(ChunkedCipherError) {
            self.destination = destination
            let url = URL(fileURLWithPath: destination)
            temporary =
                url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ChunkedFileIO.failure(temporary) }
        }

        /// Removes the temporary file unless ``commit()`` renamed it.
        deinit { discard() }

        func write(_ data: Data) throws(ChunkedCipherError) {
            var written = 0
            while written < data.count {
                let count = data.withUnsafeBytes { raw in
                    Foundation.write(descriptor, raw.baseAddress! + written, raw.count - written)
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw ChunkedFileIO.failure(temporary) }
                written += count
            }
        }

        /// Makes the file durable and puts it at its destination (replacing what was there).
        func commit() throws(ChunkedCipherError) {
            guard fsync(descriptor) == 0 else { throw ChunkedFileIO.failure(temporary) }
            close(descriptor)
            descriptor = -1
            guard rename(temporary, destination) == 0 else {
                let error = ChunkedFileIO.failure(destination)
                unlink(temporary)
                throw error
            }
            let directory = URL(fileURLWithPath: destination).deletingLastPathComponent().path
            let handle = open(directory, O_RDONLY | O_CLOEXEC)
            if handle >= 0 {
                _ = fsync(handle)
                close(handle)
            }
        }

        /// Closes and removes the temporary file; nothing after a commit.
        func discard() {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
            unlink(temporary)
        }
    }

    static func failure(_ path: String) -> ChunkedCipherError {
        .file(path: path, reason: String(cString: strerror(errno)))
    }
}
