import Foundation

/// A JPEG XMP block (APP1 with Adobe's namespace) carrying GPS properties both ways XMP writes
/// them (an attribute and an element) beside a title that must survive their removal.
enum XMPSegment {
    static let title = "Eiffel tower at noon"

    static var packet: String {
        """
        <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>
        <x:xmpmeta xmlns:x='adobe:ns:meta/'>
         <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
          <rdf:Description rdf:about='' xmlns:exif='http://ns.adobe.com/exif/1.0/'
            xmlns:dc='http://purl.org/dc/elements/1.1/' exif:GPSLatitude='48,51.504N'>
           <exif:GPSLongitude>2,17.67E</exif:GPSLongitude>
           <dc:title><rdf:Alt><rdf:li xml:lang='x-default'>\(title)</rdf:li></rdf:Alt></dc:title>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end='w'?>
        """
    }

    static var bytes: [UInt8] {
        let body = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8)
        let length = UInt16(2 + body.count)
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// `jpeg` with this segment right after its start-of-image marker.
    static func inserted(into jpeg: Data) -> Data {
        Data(jpeg.prefix(2)) + Data(bytes) + Data(jpeg.dropFirst(2))
    }
}
