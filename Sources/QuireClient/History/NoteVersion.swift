import Foundation
import QuireDomain

/// One text a note had: a version the server keeps, or a save only this device kept (a change
/// the server refused, an edit superseded before it was sent, a text from before a sync).
public struct NoteVersion: Hashable, Sendable {
    /// The server's version number; nil for a text only this device kept.
    public var version: Int?
    /// The row of this device's history that holds it, for a text only this device kept.
    public var localID: Int?
    public var savedAt: Date
    public var title: String
    public var body: String
    /// The device that typed it, as its payload says; nil when unknown (a payload from before
    /// labels) or typed here (see ``typedHere``).
    public var typedOn: DeviceLabel?
    public var typedHere: Bool
    /// The note's current text on the server.
    public var isCurrent: Bool

    public init(
        version: Int?, localID: Int? = nil, savedAt: Date, title: String, body: String,
        typedOn: DeviceLabel?, typedHere: Bool, isCurrent: Bool = false
    ) {
        self.version = version
        self.localID = localID
        self.savedAt = savedAt
        self.title = title
        self.body = body
        self.typedOn = typedOn
        self.typedHere = typedHere
        self.isCurrent = isCurrent
    }

    /// How people name it: `5` for a server version, `L12` for a text only this device kept.
    public var reference: String {
        if let version { return String(version) }
        return "L\(localID ?? 0)"
    }

    /// Where it was typed, for people: "this device", the device's name, or "unknown device".
    public var device: String {
        if typedHere { return "this device" }
        return typedOn?.name ?? "unknown device"
    }

    public var text: NoteText { NoteText(title: title, body: body) }
}
