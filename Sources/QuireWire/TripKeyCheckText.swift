/// The form of a trip key's check (issue 15): base64url without padding of the first 16 bytes of
/// HMAC-SHA256 under the key of a fixed text naming the trip and the epoch, so the server can
/// tell two keys of one epoch apart (a server restored from a backup taken before a rotation and
/// rotated again) without learning either. Made on the device (`TripKeyCheck` in QuireClient).
public enum TripKeyCheckText {
    /// Base64url of 16 bytes: 22 characters.
    public static let length = 22

    /// Whether `text` has the form of a check.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }

    /// The pattern the API document gives it.
    public static let pattern = "^[A-Za-z0-9_-]{22}$"
}
