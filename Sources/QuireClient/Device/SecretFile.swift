import Foundation

/// Files holding credentials or keys: written with mode 0600, refused when others could read them.
public enum SecretFile {
    /// Writes atomically, readable and writable by the owner only.
    public static func write(_ data: Data, to url: URL) throws {
        let temporary = url.appendingPathExtension("tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
        // rename(2) replaces an existing file atomically. FileManager.replaceItemAt fails on Linux
        // ("the file doesn't exist") when the destination exists, so a second write would throw.
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path,
                    NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO),
                ])
        }
    }

    /// Throws ``SecretFileError`` when the group or others can read or write the file.
    public static func checkPermissions(of url: URL) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        if mode & 0o077 != 0 {
            throw SecretFileError(path: url.path, mode: mode)
        }
    }
}

/// A credentials file that others can read: refused until its permissions are fixed.
public struct SecretFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var mode: Int

    public var description: String {
        "\(path) is readable by other users (mode \(String(mode, radix: 8))); "
            + "run: chmod 600 '\(path)'"
    }
}
