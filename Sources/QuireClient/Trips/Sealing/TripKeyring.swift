import Foundation
import QuireCrypto
import QuireWire

/// Every key of one trip this device holds, by epoch (issue 15: removing a member rotates the
/// trip's key). New values are sealed with the current one; an older value opens with the key of
/// the epoch its mark names.
public struct TripKeyring: Sendable, Equatable {
    /// The newest epoch held: new values are sealed with its key.
    public private(set) var epoch: Int
    private var keys: [Int: SymmetricKey256]

    /// A trip that never rotated: one key, epoch 1.
    public init(key: SymmetricKey256) {
        self.epoch = TripKeyEpoch.first
        self.keys = [TripKeyEpoch.first: key]
    }

    /// `current` at `epoch`, with the older keys this device holds.
    public init(current: SymmetricKey256, epoch: Int, older: [Int: SymmetricKey256] = [:]) {
        self.epoch = epoch
        self.keys = older.filter { $0.key < epoch }
        self.keys[epoch] = current
    }

    /// The current key.
    public var current: SymmetricKey256 { keys[epoch]! }

    /// The key of `epoch`, or nil when this device does not hold it.
    public func key(_ epoch: Int) -> SymmetricKey256? { keys[epoch] }

    /// Every epoch held but the current one, with its key.
    public var older: [Int: SymmetricKey256] { keys.filter { $0.key != epoch } }
}
