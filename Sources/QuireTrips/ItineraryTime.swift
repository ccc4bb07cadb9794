/// When an item starts or ends: the local date-time the person meant and the IANA zone of the
/// place (never the device's zone, never a fixed offset). This is the truth; the instant is derived
/// from it with the zone rules of the day (see `ZoneResolution`).
///
/// One field on the wire, written `2027-06-10T10:00 Europe/Lisbon`, so a merge never pairs one
/// side's time with the other side's zone.
public struct ItineraryTime: Sendable, Hashable, Codable, CustomStringConvertible {
    public var local: LocalDateTime
    /// An IANA zone id such as `Europe/Lisbon`. It may be unknown to this device's zone database.
    public var zoneID: String

    public init(local: LocalDateTime, zoneID: String) {
        self.local = local
        self.zoneID = zoneID
    }

    /// Parses the field's text: `LOCAL ZONE`.
    public init?(fieldValue: some StringProtocol) {
        let parts = fieldValue.split(separator: " ")
        guard parts.count == 2, let local = LocalDateTime(parts[0]), !parts[1].isEmpty else {
            return nil
        }
        self.init(local: local, zoneID: String(parts[1]))
    }

    /// The field's text.
    public var fieldValue: String { "\(local) \(zoneID)" }
    public var description: String { fieldValue }
}
