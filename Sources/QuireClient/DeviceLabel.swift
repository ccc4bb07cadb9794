import Foundation

/// Where a text was typed: the device that sealed it, as its payload says (inside the encryption,
/// so the server never learns it). `id` tells this device from another one of the same name;
/// `name` is what people read ("laptop").
public struct DeviceLabel: Codable, Hashable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
