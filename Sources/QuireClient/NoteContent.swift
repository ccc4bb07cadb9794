import Foundation
import QuireDomain

/// The plaintext inside a note's payload: what the sealed payload opens to.
public struct NoteContent: Hashable, Sendable, Codable {
    public var title: String
    public var body: String
    /// For a conflict copy: the original note's id.
    public var conflictOf: NoteID?
    /// The device that sealed this text (absent in payloads older than the label).
    public var typedOn: DeviceLabel?

    public init(
        title: String, body: String, conflictOf: NoteID? = nil, typedOn: DeviceLabel? = nil
    ) {
        self.title = title
        self.body = body
        self.conflictOf = conflictOf
        self.typedOn = typedOn
    }

    /// The same content, labelled as typed on `device`.
    public func typed(on device: DeviceLabel?) -> NoteContent {
        var labelled = self
        labelled.typedOn = device
        return labelled
    }

    public var text: NoteText { NoteText(title: title, body: body) }
}
