import Foundation
import QuireSQLite

extension TripsSchema {
    // MARK: - 6: the photo upload queue

    /// `media`: one row per photo this device added to an item (issue 16, seed 002 §8), from the
    /// moment it is queued until its attach op is queued. The files are the sealed ciphertexts in
    /// the data directory's `media` folder (names only; the folder is the device's): the photo's
    /// and its thumbnail's, each uploaded with tus on its own URL, its confirmed offset saved
    /// after every answered PATCH so an upload resumes there after a kill or a lost connection.
    ///
    /// - `state`: `queued` (nothing sent), `uploading`, `uploaded` (both files complete, attach
    ///   not queued yet), `attached` (the attach op is in the outbox; the files are gone), `failed`
    ///   (the server refused the upload: kept, with `last_error`, until removed), `removed` (the
    ///   person removed it before it was attached: its files are gone, and the next sync
    ///   terminates the uploads it had started, so they stop counting against the quota).
    /// - `attachment`: the JSON of the photo field's value without the upload ids, which are
    ///   filled from the upload URLs when the attach op is queued (per-photo keys, SHA-256,
    ///   media type, size).
    /// - `attempts`, `retry_at`, `last_error`: backoff after failed tries (``ChangeRetry``).
    static func queuePhotos(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE TABLE media (
                id                   TEXT PRIMARY KEY NOT NULL,
                trip_id              TEXT NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
                item_id              TEXT NOT NULL,
                local_file           TEXT NOT NULL,
                thumbnail_file       TEXT,
                size                 INTEGER NOT NULL,
                thumbnail_size       INTEGER,
                state                TEXT NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'uploading', 'uploaded', 'attached', 'failed', 'removed')),
                confirmed_offset     INTEGER NOT NULL DEFAULT 0,
                upload_url           TEXT,
                thumbnail_offset     INTEGER NOT NULL DEFAULT 0,
                thumbnail_upload_url TEXT,
                attachment           TEXT NOT NULL,
                attempts             INTEGER NOT NULL DEFAULT 0,
                retry_at             REAL,
                last_error           TEXT,
                created_at           REAL NOT NULL
            );
            CREATE INDEX media_by_item ON media (trip_id, item_id);
            CREATE INDEX media_waiting ON media (state) WHERE state IN ('queued', 'uploading', 'uploaded', 'removed');
            """)
    }
}
