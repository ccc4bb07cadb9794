import Foundation

/// A folder only its owner may read (the device's data directory, an export), made before
/// anything is written to it, so a folder that cannot be made is one line naming it and why
/// (exit 74), not a Foundation error dump.
enum PrivateFolder {
    /// Creates `folder` and its parents (mode 0700) unless it exists.
    /// - Parameters:
    ///   - what: the folder for people, e.g. "the data directory".
    ///   - advice: what to do instead, appended to the message.
    /// - Throws: a ``CLIError`` with exit 74 saying why, in the system's words ("Not a directory").
    static func create(_ folder: URL, what: String, advice: String = "") throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CLIError(code: .ioError, message: "\(what) \(folder.path) is not a directory\(advice)", hint: "")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError(
                code: .ioError, message: "cannot create \(what) \(folder.path): \(reason(error))\(advice)", hint: "")
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
