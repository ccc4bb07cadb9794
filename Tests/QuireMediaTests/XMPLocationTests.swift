import Testing

@testable import QuireMedia

/// Removing GPS properties from XMP text: both forms go, everything else stays, and a packet that
/// still names GPS afterwards is dropped whole (nil).
struct XMPLocationTests {
    @Test func bothFormsAreFoundAndRemoved() throws {
        let packet = XMPSegment.packet
        #expect(XMPLocation.tags(in: packet) == ["XMP:GPSLatitude", "XMP:GPSLongitude"])
        let cleaned = try #require(XMPLocation.removingLocation(from: packet))
        #expect(!cleaned.contains("GPS"))
        #expect(!cleaned.contains("48,51"))
        #expect(cleaned.contains(XMPSegment.title))
        #expect(cleaned.contains("xmlns:exif='http://ns.adobe.com/exif/1.0/'"))
    }

    @Test func anyPrefixAndEmptyElementsCount() {
        let packet =
            "<rdf:Description ex:GPSAltitude=\"35\"><ex:GPSAreaInformation/><p:GPSTrack>1</p:GPSTrack>"
            + "<ex:GPSDestBearing\nrdf:parseType='Resource'>\n<a>1</a>\n</ex:GPSDestBearing></rdf:Description>"
        #expect(
            XMPLocation.tags(in: packet) == [
                "XMP:GPSAltitude", "XMP:GPSAreaInformation", "XMP:GPSDestBearing", "XMP:GPSTrack",
            ])
        #expect(XMPLocation.removingLocation(from: packet) == "<rdf:Description></rdf:Description>")
    }

    @Test func aFormItCannotParseDropsThePacket() {
        // An unclosed element: removing what it can leaves a GPS name, so the packet goes.
        #expect(XMPLocation.removingLocation(from: "<x><exif:GPSLatitude>48</x>") == nil)
        #expect(XMPLocation.removingLocation(from: [0xFF, 0xFE] + Array(":GPSLatitude".utf8)) == nil)
    }

    @Test func aPacketWithoutLocationIsUnchanged() {
        let packet = "<dc:title>Louvre</dc:title>"
        #expect(XMPLocation.tags(in: packet) == [])
        #expect(XMPLocation.removingLocation(from: packet) == packet)
        #expect(XMPLocation.removingLocation(from: Array(packet.utf8)) == Array(packet.utf8))
    }
}
