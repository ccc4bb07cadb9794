import Foundation

/// A field value as it travels: sealed (or plain for `deleted`), with its keyed hash.
public struct SealedFieldValue: Sendable, Hashable {
    public var value: String?
    public var valueHash: String?

    public init(value: String?, valueHash: String?) {
        self.value = value
        self.valueHash = valueHash
    }
}
