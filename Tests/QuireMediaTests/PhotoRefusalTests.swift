#if canImport(CVips) && !canImport(ImageIO)
    import Foundation
    import QuireMedia
    import Testing

    /// What is not a photo Quire takes is refused with a message that says what to do, without
    /// trapping, and leaves nothing behind in the output directory.
    struct PhotoRefusalTests {
        let processor = PhotoProcessor()

        func refusal(_ source: URL, in scratch: borrowing Scratch) throws -> PhotoProcessingError {
            let error = try #require(throws: PhotoProcessingError.self) {
                try processor.prepare(source, keepLocation: false, into: scratch.output)
            }
            #expect(scratch.outputNames == [], "prepare left files behind")
            return error
        }

        @Test func aTextFileIsNotAnImage() throws {
            let scratch = try Scratch()
            let source = scratch.file("notes.jpg")
            try Data("Day 1: Paris.\n".utf8).write(to: source)
            let error = try refusal(source, in: scratch)
            #expect(error.code == .notAnImage)
            #expect(error.description.hasPrefix("\(source.path) is not an image libvips can read ("))
            #expect(error.description.hasSuffix("). Use a JPEG, PNG, HEIC or WebP photo."))
            #expect(throws: PhotoProcessingError.self) { try processor.locationTags(of: source) }
        }

        @Test func anEmptyFileIsNotAnImage() throws {
            let scratch = try Scratch()
            let source = scratch.file("empty.jpg")
            try Data().write(to: source)
            let error = try refusal(source, in: scratch)
            #expect(error.code == .notAnImage)
            #expect(error.description.contains("the file is empty, 0 bytes"))
        }

        @Test(arguments: [0.5, 0.9])
        func aTruncatedJPEGIsDamaged(keptFraction: Double) throws {
            let scratch = try Scratch()
            let whole = scratch.file("whole.jpg")
            try TestPhotos.jpeg(width: 1200, height: 800, at: whole)
            let data = try Data(contentsOf: whole)
            let source = scratch.file("cut.jpg")
            try data.prefix(Int(Double(data.count) * keptFraction)).write(to: source)
            let error = try refusal(source, in: scratch)
            #expect(error.code == .damaged, "\(error)")
            #expect(error.description.contains("truncated or damaged"))
        }

        @Test func aJPEGCutInsideItsHeaderIsRefused() throws {
            let scratch = try Scratch()
            let whole = scratch.file("whole.jpg")
            try TestPhotos.jpeg(width: 600, height: 400, at: whole)
            let source = scratch.file("stub.jpg")
            try Data(contentsOf: whole).prefix(40).write(to: source)
            let error = try refusal(source, in: scratch)
            #expect(error.code == .damaged || error.code == .notAnImage, "\(error)")
        }

        @Test func aTIFFIsAnImageQuireDoesNotTake() throws {
            let scratch = try Scratch()
            let source = scratch.file("scan.tif")
            try TestPhotos.tiff(at: source)
            let error = try refusal(source, in: scratch)
            #expect(error.code == .unsupportedFormat)
            #expect(error.description.contains("is a TIFF image, which Quire does not take as a photo"))
        }

        @Test func aMissingFileOrADirectoryIsUnreadable() throws {
            let scratch = try Scratch()
            for source in [scratch.file("gone.jpg"), scratch.root] {
                let error = try refusal(source, in: scratch)
                #expect(error.code == .unreadable)
                #expect(error.description.hasPrefix("Cannot open \(source.path) ("))
            }
        }

        @Test func anUnwritableDirectoryIsReported() throws {
            let scratch = try Scratch()
            let source = scratch.file("ok.jpg")
            try TestPhotos.jpeg(width: 100, height: 100, at: source)
            let blocker = scratch.file("a-file")
            try Data("x".utf8).write(to: blocker)
            let error = try #require(throws: PhotoProcessingError.self) {
                try processor.prepare(source, keepLocation: false, into: blocker.appendingPathComponent("sub"))
            }
            #expect(error.code == .cannotWrite)
        }
    }
#endif
