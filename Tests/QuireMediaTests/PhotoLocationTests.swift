#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import QuireMedia
    import Testing

    /// Location privacy: a photo's GPS tags (EXIF and XMP) are gone from the upload copy and the
    /// thumbnail unless the person keeps them, and every other tag stays. Checked by
    /// `locationTags(of:)` and, independently, by exiftool.
    struct PhotoLocationTests {
        let processor = PhotoProcessor()

        @Test func locationIsRemovedFromTheCopyAndTheThumbnail() throws {
            let scratch = try Scratch()
            let source = scratch.file("eiffel.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, exif: ExifSegment(orientation: 6), xmp: true, at: source)
            let original = try Data(contentsOf: source)
            // Given a photo with GPS in both EXIF and XMP (both readers agree it is there)
            #expect(
                try processor.locationTags(of: source) == [
                    "GPSLatitude", "GPSLatitudeRef", "GPSLongitude", "GPSLongitudeRef", "GPSVersionID",
                    "XMP:GPSLatitude", "XMP:GPSLongitude",
                ])
            let before = try Exiftool.tags(of: source)
            #expect(before["GPS:GPSLatitude"] != nil && before["XMP-exif:GPSLongitude"] != nil)

            // When it is prepared
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)

            // Then neither reader finds any location in the copy or the thumbnail
            for file in [prepared.photo, prepared.thumbnail] {
                #expect(try processor.locationTags(of: file) == [], "\(file.lastPathComponent)")
                #expect(try Exiftool.locationTags(of: file) == [], "\(file.lastPathComponent)")
            }
            // and the copy keeps its other tags: orientation, camera, the XMP title
            let after = try Exiftool.tags(of: prepared.photo)
            #expect(after["IFD0:Orientation"] == "6")
            #expect(after["IFD0:Make"] == "QuireTestCam")
            #expect(after["IFD0:Model"] == "Q1")
            #expect(after["XMP-dc:Title"] == XMPSegment.title)
            #expect(prepared.mediaType == "image/jpeg")
            #expect(prepared.photo.pathExtension == "jpg")
            // and the source is untouched
            #expect(try Data(contentsOf: source) == original)
        }

        @Test func theThumbnailCarriesNoMetadataAtAll() throws {
            let scratch = try Scratch()
            let source = scratch.file("tagged.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, xmp: true, at: source)
            let prepared = try processor.prepare(source, keepLocation: true, into: scratch.output)
            let groups = Set(try Exiftool.tags(of: prepared.thumbnail).keys.map { $0.split(separator: ":")[0] })
            #expect(
                groups.isDisjoint(with: ["IFD0", "ExifIFD", "GPS", "XMP-exif", "XMP-dc", "ICC_Profile"]), "\(groups)")
        }

        @Test func keepLocationCopiesThePhotoByteForByte() throws {
            let scratch = try Scratch()
            let source = scratch.file("kept.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, xmp: true, at: source)
            let prepared = try processor.prepare(source, keepLocation: true, into: scratch.output)
            #expect(try Data(contentsOf: prepared.photo) == Data(contentsOf: source))
            #expect(try processor.locationTags(of: prepared.photo).contains("GPSLatitude"))
            #expect(try Exiftool.tags(of: prepared.photo)["GPS:GPSLatitude"] != nil)
            #expect(try Exiftool.locationTags(of: prepared.thumbnail) == [])
        }

        @Test func aPhotoWithoutLocationIsCopiedUnchanged() throws {
            let scratch = try Scratch()
            let source = scratch.file("nowhere.jpg")
            try TestPhotos.jpeg(width: 300, height: 200, exif: ExifSegment(latitude: nil, longitude: nil), at: source)
            #expect(try processor.locationTags(of: source) == [])
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            #expect(try Data(contentsOf: prepared.photo) == Data(contentsOf: source))
        }

        /// libvips carries the EXIF into each format; each loses its GPS tags and keeps its format.
        @Test(arguments: [
            (".png", "image/png", "png"), (".webp", "image/webp", "webp"), (".heic", "image/heic", "heic"),
        ])
        func everyFormatLosesItsLocation(suffix: String, mediaType: String, fileExtension: String) throws {
            let scratch = try Scratch()
            let jpeg = scratch.file("source.jpg")
            try TestPhotos.jpeg(width: 320, height: 240, at: jpeg)
            let source = scratch.file("photo\(suffix)")
            try TestPhotos.convert(jpeg, suffix: suffix, to: source)
            #expect(try processor.locationTags(of: source).contains("GPSLatitude"))
            #expect(try Exiftool.locationTags(of: source).contains("GPS:GPSLatitude"))

            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)

            #expect(prepared.mediaType == mediaType)
            #expect(prepared.photo.pathExtension == fileExtension)
            #expect(try processor.locationTags(of: prepared.photo) == [])
            #expect(try Exiftool.locationTags(of: prepared.photo) == [])
            #expect(try Exiftool.tags(of: prepared.photo).values.contains("QuireTestCam"))
        }

        @Test func aFileNameWithBracketsIsReadAsItIs() throws {
            // libvips reads "name.jpg[Q=90]" as options when given a file name; QuireMedia gives it
            // file sources instead.
            let scratch = try Scratch()
            let source = scratch.file("beach [1][Q=5].jpg")
            try TestPhotos.jpeg(width: 400, height: 300, at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            #expect(try processor.locationTags(of: prepared.photo) == [])
            #expect(prepared.width == 400)
        }
    }
#endif
