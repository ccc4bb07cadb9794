import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Photos: what an item shows, and the attach and remove ops

extension TripsDatabase {
    /// The item's photos, as this device shows them: its own from the moment they were queued
    /// (with their upload's progress), and every photo the item's log holds, companions'
    /// included, with a waiting attach or removal on top. Oldest first for this device's own,
    /// then by id. Empty for an item this device does not have.
    public func photos(of item: ItemID) throws -> [TripPhoto] {
        guard let trip = try tripOf(item) else { return [] }
        return try readPhotos(trip: trip, item: item)
    }

    /// The photo with this id (or unique prefix of 4 or more characters), on any item.
    /// - Throws: ``PhotoError`` `.unknownPhoto` when none matches or several do.
    public func photo(_ text: String) throws -> TripPhoto {
        let needle = text.lowercased()
        let pattern = WireRoutes.photoFieldPrefixPattern(needle)
        let places = try connection.query(
            """
            SELECT DISTINCT trip_id, item_id, field FROM (
                SELECT trip_id, item_id, field FROM fields WHERE field LIKE ?1
                UNION SELECT trip_id, item_id, field FROM outbox WHERE field LIKE ?1
                UNION SELECT trip_id, item_id, 'photo.' || id FROM media WHERE 'photo.' || id LIKE ?1
                    AND state != 'removed')
            """, pattern
        ) { (TripID($0.text(0)), ItemID($0.text(1)), $0.text(2)) }
        let exact = places.filter { $0.2 == TripWireFields.photoField(needle) }
        let chosen = exact.isEmpty ? places : exact
        guard needle.count >= 4 || !exact.isEmpty, chosen.count == 1, case let (trip?, item?, field)? = chosen.first,
            let id = TripWireFields.photoID(ofField: field),
            let photo = try readPhotos(trip: trip, item: item).first(where: { $0.id == id })
        else {
            let why = chosen.count > 1 ? "'\(text)' matches \(chosen.count) photos; give more of the id" : nil
            throw PhotoError(.unknownPhoto, why ?? "no photo '\(text)' on this device; see 'quire trip photos ITEM'")
        }
        return photo
    }

    /// Removes a photo (by id or unique prefix, as ``photo(_:)`` finds it). One this device added
    /// that is not attached yet leaves the queue (its row goes; the caller deletes its files,
    /// returned); one in the item's log gets a removal op (the field set to null), sent like any
    /// change. Uploads a queued photo had started are terminated by the next sync; those of an
    /// attached photo this device uploaded, once the server has taken the removal
    /// (``mediaToTerminate()``).
    /// - Throws: ``PhotoError`` `.unknownPhoto` when there is no such photo;
    ///   ``TripsDatabaseError`` `.deletedItem` when its item is deleted.
    @discardableResult
    public func removePhoto(_ text: String) throws -> [String] {
        try write {
            let photo = try photo(text)
            let id = photo.id
            if let upload = try media(id), upload.state != "attached" {
                // Uploads it started are terminated by the next sync (TripsSchema+Media: removed).
                if upload.uploadURL ?? upload.thumbnailUploadURL != nil {
                    try connection.run("UPDATE media SET state = 'removed', retry_at = NULL WHERE id = ?", id)
                } else {
                    try connection.run("DELETE FROM media WHERE id = ?", id)
                }
                return [upload.localFile, upload.thumbnailFile].compactMap { $0 }
            }
            _ = try requireLiveItem(photo.item)
            try queuePhotoField(trip: photo.trip, item: photo.item, photo: id, value: nil)
            return []
        }
    }

    /// Queues `value` for the item's photo field, inside the caller's transaction, with the
    /// outbox's rules for any field: an unsent change of the field folds (and goes away when it
    /// brings the field back to the server's value with nothing in flight); a new one is based on
    /// the field's confirmed revision, or on everything seen of the item for a new field, so an
    /// attach to an item deleted and purged meanwhile meets the delete.
    func queuePhotoField(trip: TripID, item: ItemID, photo: String, value: String?) throws {
        let field = TripWireFields.photoField(photo)
        let key = item.description
        try connection.run(
            "DELETE FROM outbox WHERE trip_id = ? AND item_id = ? AND field = ? AND rejected = 1",
            trip.description, key, field)
        let confirmed = try confirmedValue(trip: trip, item: key, field: field)
        let ops = try fieldOps(trip: trip, item: key, field: field)
        if value == (ops.last.map(\.value) ?? confirmed?.value) { return }
        if let unsent = ops.last, unsent.isUnsent {
            if !ops.contains(where: { $0.requestID != nil }), value == confirmed?.value {
                try connection.run("DELETE FROM outbox WHERE seq = ?", unsent.seq)
            } else {
                try connection.run("UPDATE outbox SET value = ? WHERE seq = ?", value, unsent.seq)
            }
            return
        }
        let base = try confirmed?.revision ?? seenRevision(trip: trip, item: key)
        try insertOp(
            trip: trip, item: key, field: field, value: value, baseRevision: base, baseValue: confirmed?.value)
    }

    /// Every photo in the trips' logs, companions' included, with a thumbnail this device has
    /// not downloaded (`cached`: the uploads the cache holds), at most `limit`: what the
    /// sync prefetches so thumbnails show at once, offline too.
    package func thumbnailsToFetch(limit: Int, cached: Set<String>) throws -> [TripPhoto] {
        let items = try connection.query(
            "SELECT DISTINCT trip_id, item_id FROM fields WHERE field LIKE ? AND value IS NOT NULL ORDER BY 1, 2",
            WireRoutes.photoFieldPrefixPattern("")
        ) { (TripID($0.text(0)), ItemID($0.text(1))) }
        var photos: [TripPhoto] = []
        for case let (trip?, item?) in items where photos.count < limit {
            for photo in try readPhotos(trip: trip, item: item) where photos.count < limit {
                guard photo.state == .shared, let upload = photo.attachment?.thumbnail?.upload, !cached.contains(upload)
                else { continue }
                photos.append(photo)
            }
        }
        return photos
    }

    /// The photo id a field names (`photo.<id>`), nil for any other field.
    static func photoID(ofField field: String) -> String? { TripWireFields.photoID(ofField: field) }

    // MARK: - Reading

    private func readPhotos(trip: TripID, item: ItemID) throws -> [TripPhoto] {
        let pattern = WireRoutes.photoFieldPrefixPattern("")
        var confirmed: [String: String?] = [:]
        for (field, value) in try connection.query(
            "SELECT field, value FROM fields WHERE trip_id = ? AND item_id = ? AND field LIKE ?", trip.description,
            item.description, pattern, map: { ($0.text(0), $0.optionalText(1)) })
        {
            if let id = TripWireFields.photoID(ofField: field) { confirmed[id] = value }
        }
        var waiting: [String: TripsStoredOp] = [:]
        for op in try connection.query(
            TripsStoredOp.select + " WHERE trip_id = ? AND item_id = ? AND field LIKE ? ORDER BY seq",
            bindings: [trip.description, item.description, pattern], map: TripsStoredOp.read)
        {
            if let id = TripWireFields.photoID(ofField: op.field) { waiting[id] = op }
        }
        var photos: [TripPhoto] = []
        var listed: Set<String> = []
        let queued = try connection.query(
            Self.mediaSelect
                + " WHERE trip_id = ? AND item_id = ? AND state NOT IN ('attached', 'removed') ORDER BY created_at, id",
            trip.description, item.description, map: Self.mediaUpload)
        for case let upload? in queued {
            let state: TripPhoto.State =
                switch upload.state {
                case "queued": .queued
                case "uploaded": .attaching
                case "failed": .failed
                default: .uploading
                }
            photos.append(
                TripPhoto(
                    id: upload.id, trip: trip, item: item, state: state, uploadBytes: upload.totalBytes,
                    uploadedBytes: upload.confirmedBytes, mediaType: upload.attachment.mediaType,
                    size: upload.attachment.photo.size, error: upload.lastError))
            listed.insert(upload.id)
        }
        for id in Set(confirmed.keys).union(waiting.keys).subtracting(listed).sorted() {
            let stored = confirmed[id] ?? nil
            let op = waiting[id]
            let state: TripPhoto.State
            var error: String?
            var value = stored
            if let op {
                if let reason = op.rejectedReason {
                    state = .failed
                    error = reason
                } else {
                    state = op.value == nil ? .removing : (op.value == stored ? .shared : .attaching)
                }
                value = op.value ?? stored
            } else {
                guard stored != nil else { continue }  // removed
                state = .shared
            }
            let attachment = value.flatMap(PhotoAttachment.init(fieldValue:))
            photos.append(
                TripPhoto(
                    id: id, trip: trip, item: item, state: state, attachment: attachment,
                    mediaType: attachment?.mediaType, size: attachment?.photo.size,
                    error: error ?? (value != nil && attachment == nil ? "this version cannot read this photo" : nil)))
        }
        return photos
    }
}

extension WireRoutes {
    /// A `LIKE` pattern for photo fields whose id starts with `prefix` (hex digits and dashes
    /// only, so nothing in it is a wildcard).
    static func photoFieldPrefixPattern(_ prefix: String) -> String {
        TripWireFields.photoFieldPrefix + prefix.filter { $0.isHexDigit || $0 == "-" } + "%"
    }
}
