/// The few characters of a device-made id that a person reads and types: its last eight.
///
/// Ids made since stop 37 begin with the moment they were made (version 7 UUIDs,
/// ``Foundation/UUID/timeOrdered(madeAt:)``), so ids made within the same minute share their first
/// eight characters; the last twelve are random in every version, so the last eight tell notes
/// apart as the first eight of a random id did. A typed id names an id it begins or ends, so an
/// id of an earlier release's list, typed by its start, still finds its note.
public enum ShortID {
    /// How many characters a list shows.
    public static let length = 8

    /// The last ``length`` characters of `id`.
    public static func of(_ id: String) -> String { String(id.suffix(length)) }

    /// Whether `typed` (any case) is the start or the end of `id` (lowercase, as ids are written),
    /// or, 4 characters or more, the start of what a list shows of it (``of(_:)``), which is what
    /// a person reading the list types.
    /// A lookup asks this of every note the device holds with the same `typed`, which its callers
    /// have already lowercased: it is lowercased again only when it holds a capital.
    public static func matches(_ typed: String, id: String) -> Bool {
        let hasCapital = typed.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        let needle = hasCapital ? typed.lowercased() : typed
        return id.hasPrefix(needle) || id.hasSuffix(needle)
            || (needle.utf8.count >= 4 && needle.utf8.count <= length && of(id).hasPrefix(needle))
    }
}
