import Foundation

/// GPS properties in an XMP packet (the XML metadata beside EXIF): finding them and taking them out.
///
/// XMP repeats EXIF's GPS tags as `exif:GPSLatitude` and friends, as an attribute
/// (`exif:GPSLatitude="48,51.504N"`) or an element (`<exif:GPSLatitude>…</exif:GPSLatitude>`).
/// Removing EXIF's GPS block alone would leave the location in the XMP packet of a photo edited in
/// Lightroom or written by exiftool, so both are handled. The namespace prefix is whatever the
/// packet binds, so any `prefix:GPSName` counts. When a property survives the removal (a form
/// this does not parse), the caller drops the whole packet: losing a title beats leaking a place.
enum XMPLocation {
    /// The GPS property names in `packet`, as "XMP:GPSLatitude", sorted and without repeats.
    static func tags(in packet: String) -> [String] {
        let range = NSRange(packet.startIndex..., in: packet)
        let names = anyProperty.matches(in: packet, range: range).compactMap { match in
            Range(match.range(at: 1), in: packet).map { "XMP:\(packet[$0])" }
        }
        return Array(Set(names)).sorted()
    }

    /// `packet` without its GPS properties, or nil when some remain after removal (the caller
    /// then drops the packet).
    static func removingLocation(from packet: String) -> String? {
        var text = packet
        for pattern in [element, emptyElement, attribute] {
            text = pattern.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        }
        return tags(in: text).isEmpty ? text : nil
    }

    /// The same on the packet's bytes (libvips keeps XMP as a blob): nil when the packet must be
    /// dropped, including when its bytes are not UTF-8 and it mentions GPS at all.
    static func removingLocation(from packet: [UInt8]) -> [UInt8]? {
        guard let text = String(bytes: packet, encoding: .utf8) else {
            return packet.containsGPS ? nil : packet
        }
        return removingLocation(from: text).map { Array($0.utf8) }
    }

    /// The GPS property names in a packet's bytes.
    static func tags(in packet: [UInt8]) -> [String] {
        if let text = String(bytes: packet, encoding: .utf8) { return tags(in: text) }
        return packet.containsGPS ? ["XMP:GPS"] : []
    }

    // MARK: - Patterns

    private static let name = #"[A-Za-z_][\w.-]*:(GPS\w+)"#
    // Compiled on each use (a photo needs a handful): NSRegularExpression is not Sendable on every
    // platform, so it is not kept in a static. The patterns are literals; `try!` cannot fail.
    private static var anyProperty: NSRegularExpression { try! NSRegularExpression(pattern: name) }
    /// `<exif:GPSLatitude …>…</exif:GPSLatitude>`, across lines, shortest match.
    private static var element: NSRegularExpression {
        try! NSRegularExpression(
            pattern: #"<([A-Za-z_][\w.-]*:GPS\w+)\b[^>]*(?<!/)>.*?</\1\s*>"#, options: [.dotMatchesLineSeparators])
    }
    /// `<exif:GPSLatitude/>` or `<exif:GPSLatitude rdf:resource="…"/>`.
    private static var emptyElement: NSRegularExpression {
        try! NSRegularExpression(pattern: #"<[A-Za-z_][\w.-]*:GPS\w+\b[^>]*/>"#)
    }
    /// ` exif:GPSLatitude="…"` or with single quotes.
    private static var attribute: NSRegularExpression {
        try! NSRegularExpression(pattern: #"\s+[A-Za-z_][\w.-]*:GPS\w+\s*=\s*("[^"]*"|'[^']*')"#)
    }
}

extension [UInt8] {
    /// Whether the bytes contain ":GPS", the mark of an XMP GPS property in any encoding close to ASCII.
    fileprivate var containsGPS: Bool {
        let mark = Array(":GPS".utf8)
        guard count >= mark.count else { return false }
        return (0...(count - mark.count)).contains { Array(self[$0..<$0 + mark.count]) == mark }
    }
}
