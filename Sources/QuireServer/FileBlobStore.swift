import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// ``BlobStore`` in a directory (`--blobs DIR`): blob `name` is the file `DIR/<first two
/// characters>/<name>`, mode 0600, in folders of mode 0700 (the server's user alone reads them,
/// as it alone reads the database). Several instances may share one directory (a volume they all
/// mount): names are random, and every write goes to the offset the database confirmed.
///
/// ``sync(_:)`` is `fsync` of the file and of its folder, so a blob a crash keeps is found again
/// under its name.
public struct FileBlobStore: BlobStore {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public init(directory: String) {
        self.init(root: URL(fileURLWithPath: directory, isDirectory: true))
    }

    /// Makes the root directory (and any missing parents) with mode 0700 and checks that the
    /// server may write there; the server calls it at start so a bad `--blobs` stops it at once.
    public func prepare() throws {
        do {
            try FileManager.default.createDirectory(
                at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BlobStoreError("cannot create \(root.path): \(error.localizedDescription)")
        }
        guard access(root.path, W_OK | X_OK) == 0 else { throw failure("write to", root.path) }
    }

    /// The file of blob `name`; throws for a name that is not 32 lowercase hex digits (it
    /// must never reach outside the root).
    func path(_ name: String) throws -> (folder: String, file: String) {
        guard name.utf8.count == 32, name.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { throw BlobStoreError("'\(name)' is not a blob name (32 lowercase hex digits)") }
        let folder = root.appendingPathComponent(String(name.prefix(2)), isDirectory: true).path
        return (folder, folder + "/" + name)
    }

    public func append(_ data: Data, to name: String, at offset: Int64) throws {
        let (folder, file) = try path(name)
        var descriptor = Foundation.open(file, O_WRONLY | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT {
            try makeFolder(folder)
            descriptor = Foundation.open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw failure("open", file) }
        defer { close(descriptor) }
        var size = stat()
        guard fstat(descriptor, &size) == 0 else { throw failure("stat", file) }
        guard offset <= Int64(size.st_size) else {
            throw BlobStoreError("cannot write \(file) at \(offset): it holds only \(size.st_size) bytes")
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { raw in
                pwrite(descriptor, raw.baseAddress! + written, raw.count - written, off_t(offset) + off_t(written))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("write", file) }
            written += count
        }
    }

    public func sync(_ name: String) throws {
        let (folder, file) = try path(name)
        for (target, flags) in [(file, O_WRONLY), (folder, O_RDONLY)] {
            let descriptor = Foundation.open(target, flags | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure("open", target) }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw failure("fsync", target) }
        }
    }

    public func size(_ name: String) throws -> Int64? {
        let (_, file) = try path(name)
        var info = stat()
        guard stat(file, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw failure("stat", file)
        }
        return Int64(info.st_size)
    }

    public func read(_ name: String, range: Range<Int64>) throws -> Data {
        let (_, file) = try path(name)
        let descriptor = Foundation.open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", file) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: Int(range.count))
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(
                    descriptor, raw.baseAddress! + filled, raw.count - filled, off_t(range.lowerBound) + off_t(filled))
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("read", file) }
            if count == 0 { break }
            filled += count
        }
        return Data(buffer.prefix(filled))
    }

    public func remove(_ name: String) throws {
        let (_, file) = try path(name)
        guard unlink(file) == 0 || errno == ENOENT else { throw failure("remove", file) }
    }

    /// Makes `folder` (and the root) with mode 0700 if needed; a new folder's entry is made
    /// durable in its parent.
    private func makeFolder(_ folder: String) throws {
        for directory in [root.path, folder] {
            if mkdir(directory, 0o700) == 0 {
                let parent = (directory as NSString).deletingLastPathComponent
                let handle = Foundation.open(parent.isEmpty ? "." : parent, O_RDONLY | O_CLOEXEC)
                if handle >= 0 {
                    _ = fsync(handle)
                    close(handle)
                }
            } else if errno != EEXIST {
                throw failure("create the folder", directory)
            }
        }
    }

    private func failure(_ operation: String, _ path: String) -> BlobStoreError {
        BlobStoreError("cannot \(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
