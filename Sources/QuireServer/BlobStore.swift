import Foundation

/// Where the bytes of uploads live (issue 16): ciphertext the devices sealed, named by upload id.
///
/// Small on purpose, so an object store can implement it as well as a directory: write bytes at
/// an offset, make them durable, tell the size, read a range, remove. The server only writes a
/// blob at its confirmed offset (so every byte before it stays as confirmed) and confirms an
/// offset in the database only after ``sync(_:)`` returned, so after any crash the blob holds at
/// least every confirmed byte. Bytes past the confirmed offset (a PATCH whose answer never went
/// out) are written over by the next PATCH at that offset.
///
/// Calls block (file or network I/O): the server makes them off the concurrency pool. Names
/// are 32 lowercase hex digits.
public protocol BlobStore: Sendable {
    /// Writes `data` into blob `name` at `offset` (at most the blob's size, 0 for a blob that
    /// does not exist yet, which this creates), over whatever was there.
    func append(_ data: Data, to name: String, at offset: Int64) throws

    /// Makes every byte written to `name` so far durable (and the blob's existence): after it
    /// returns, a crash of the process or the machine keeps them.
    func sync(_ name: String) throws

    /// The blob's size in bytes, nil when it does not exist.
    func size(_ name: String) throws -> Int64?

    /// Bytes `range` of the blob (fewer when the blob ends first).
    func read(_ name: String, range: Range<Int64>) throws -> Data

    /// Deletes the blob; nothing when it does not exist.
    func remove(_ name: String) throws
}

/// A blob store's failure: the operation, the blob and what the system said.
public struct BlobStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
