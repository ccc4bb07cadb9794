import Foundation

/// A JPEG EXIF block (APP1) written by hand, so the tests' GPS tags come from no image library:
/// IFD0 with make, model and orientation, and a GPS IFD with version, latitude and longitude.
///
/// Little-endian TIFF, as phone cameras write it. Values longer than four bytes go in a data area
/// after the two IFDs; the GPS IFD's offset is IFD0's GPSInfo tag (0x8825).
struct ExifSegment {
    var make = "QuireTestCam"
    var model = "Q1"
    var orientation: UInt16 = 1
    /// Degrees, minutes, seconds; nil writes no GPS IFD at all.
    var latitude: (Double, Double, Double)? = (48, 51, 30.24)
    var longitude: (Double, Double, Double)? = (2, 17, 40.2)

    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var bytes: [UInt8]
    }

    /// The APP1 segment: marker, length, "Exif\0\0", the TIFF structure.
    var bytes: [UInt8] {
        let tiff = self.tiff
        let length = UInt16(2 + 6 + tiff.count)
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
    }

    /// `jpeg` with this segment right after its start-of-image marker.
    func inserted(into jpeg: Data) -> Data {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
        return Data(jpeg.prefix(2)) + Data(bytes) + Data(jpeg.dropFirst(2))
    }

    private var tiff: [UInt8] {
        var ifd0 = [
            Entry(tag: 0x010F, type: 2, count: UInt32(make.utf8.count + 1), bytes: Array(make.utf8) + [0]),
            Entry(tag: 0x0110, type: 2, count: UInt32(model.utf8.count + 1), bytes: Array(model.utf8) + [0]),
            Entry(tag: 0x0112, type: 3, count: 1, bytes: Self.le16(orientation)),
        ]
        var gps: [Entry] = []
        if let latitude, let longitude {
            gps = [
                Entry(tag: 0x0000, type: 1, count: 4, bytes: [2, 3, 0, 0]),
                Entry(tag: 0x0001, type: 2, count: 2, bytes: Array("N".utf8) + [0]),
                Entry(tag: 0x0002, type: 5, count: 3, bytes: Self.rationals(latitude)),
                Entry(tag: 0x0003, type: 2, count: 2, bytes: Array("E".utf8) + [0]),
                Entry(tag: 0x0004, type: 5, count: 3, bytes: Self.rationals(longitude)),
            ]
            ifd0.append(Entry(tag: 0x8825, type: 4, count: 1, bytes: [0, 0, 0, 0]))
        }
        let ifd0Offset = 8
        let gpsOffset = ifd0Offset + Self.size(ifd0)
        let dataOffset = gpsOffset + (gps.isEmpty ? 0 : Self.size(gps))
        if !gps.isEmpty { ifd0[ifd0.count - 1].bytes = Self.le32(UInt32(gpsOffset)) }
        var data: [UInt8] = []
        var out: [UInt8] = Array("II".utf8) + Self.le16(42) + Self.le32(UInt32(ifd0Offset))
        for ifd in gps.isEmpty ? [ifd0] : [ifd0, gps] {
            out += Self.le16(UInt16(ifd.count))
            for entry in ifd {
                out += Self.le16(entry.tag) + Self.le16(entry.type) + Self.le32(entry.count)
                if entry.bytes.count <= 4 {
                    out += entry.bytes + [UInt8](repeating: 0, count: 4 - entry.bytes.count)
                } else {
                    out += Self.le32(UInt32(dataOffset + data.count))
                    data += entry.bytes
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += Self.le32(0)
        }
        return out + data
    }

    private static func size(_ ifd: [Entry]) -> Int { 2 + ifd.count * 12 + 4 }

    private static func rationals(_ value: (Double, Double, Double)) -> [UInt8] {
        [value.0, value.1, value.2].flatMap { le32(UInt32(($0 * 100).rounded())) + le32(100) }
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
