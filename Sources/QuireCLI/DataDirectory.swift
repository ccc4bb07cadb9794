import Foundation

/// The device's data directory, made before anything opens it, so a directory that cannot be made
/// is one line naming it and why (exit 74), not a Foundation error dump.
enum DataDirectory {
    /// Creates `directory` and its parents (mode 0700) unless it exists.
    /// - Throws: a ``CLIError`` with exit 74 saying why, in the system's words ("Not a directory").
    static func create(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIError(
                    code: .ioError, message: "the data directory \(directory.path) is a file, not a directory",
                    hint: "")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(
                code: .ioError,
                message: "cannot create the data directory \(directory.path): \(reason(error)). "
                    + "Choose another with --data-dir or $QUIRE_HOME", hint: "")
        }
    }

    /// The POSIX reason inside a Foundation file error ("Permission denied"), or its description.
    static func reason(_ error: Error) -> String {
        var current: NSError? = error as NSError
        while let nsError = current {
            if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
            current = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        }
        return error.localizedDescription
    }
}
