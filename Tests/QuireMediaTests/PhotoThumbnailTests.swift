#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import QuireMedia
    import Testing

    /// The thumbnail: at most 320 px on its long side, the photo's aspect, upright by its EXIF
    /// orientation, never enlarged; the photo's size is reported upright too.
    struct PhotoThumbnailTests {
        let processor = PhotoProcessor()

        @Test(arguments: [
            (1200, 800, 320, 213), (800, 1200, 213, 320), (300, 200, 300, 200), (4000, 1000, 320, 80),
            (320, 320, 320, 320),
        ])
        func theThumbnailFitsThe320BoxWithThePhotosAspect(width: Int, height: Int, thumbWidth: Int, thumbHeight: Int)
            throws
        {
            let scratch = try Scratch()
            let source = scratch.file("photo.jpg")
            try TestPhotos.jpeg(width: width, height: height, at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            let thumbnail = try TestPhotos.pixels(of: prepared.thumbnail)
            #expect((thumbnail.width, thumbnail.height) == (thumbWidth, thumbHeight))
            #expect((prepared.width, prepared.height) == (width, height))
            #expect(try Exiftool.tags(of: prepared.thumbnail)["File:FileType"] == "JPEG")
        }

        /// Orientation 6 ("rotate 90 CW to show"): the stored left half (white) is the shown top.
        @Test func theThumbnailIsTurnedUprightByItsOrientation() throws {
            let scratch = try Scratch()
            let source = scratch.file("sideways.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, exif: ExifSegment(orientation: 6), at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            #expect((prepared.width, prepared.height) == (400, 600))
            let thumbnail = try TestPhotos.pixels(of: prepared.thumbnail)
            #expect((thumbnail.width, thumbnail.height) == (213, 320))
            #expect(thumbnail.value(x: 106, y: 40) > 200)
            #expect(thumbnail.value(x: 106, y: 280) < 50)
            // The copy keeps the orientation tag rather than turning the pixels.
            #expect(try Exiftool.tags(of: prepared.photo)["IFD0:Orientation"] == "6")
        }

        @Test func anUprightPhotoKeepsItsLeftAndRight() throws {
            let scratch = try Scratch()
            let source = scratch.file("upright.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            let thumbnail = try TestPhotos.pixels(of: prepared.thumbnail)
            #expect(thumbnail.value(x: 40, y: 106) > 200)
            #expect(thumbnail.value(x: 280, y: 106) < 50)
        }

        /// 48 megapixels: libvips shrinks while decoding and streams the copy, so this is quick and
        /// small (its peak memory, measured in a child process, is in docs/benchmarks.md).
        @Test func aLargePhotoIsPrepared() throws {
            let scratch = try Scratch()
            let source = scratch.file("large.jpg")
            try TestPhotos.jpeg(width: 8000, height: 6000, at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            #expect((prepared.width, prepared.height) == (8000, 6000))
            let thumbnail = try TestPhotos.pixels(of: prepared.thumbnail)
            #expect((thumbnail.width, thumbnail.height) == (320, 240))
            #expect(try processor.locationTags(of: prepared.photo) == [])
        }

        @Test func aTransparentPNGGetsAWhiteBackground() throws {
            let scratch = try Scratch()
            let source = scratch.file("clear.png")
            try TestPhotos.transparentPNG(width: 100, height: 50, at: source)
            let prepared = try processor.prepare(source, keepLocation: false, into: scratch.output)
            let thumbnail = try TestPhotos.pixels(of: prepared.thumbnail)
            #expect(thumbnail.bands == 3)
            #expect(thumbnail.value(x: 50, y: 25) > 240)
            #expect(prepared.mediaType == "image/png")
        }
    }
#endif
