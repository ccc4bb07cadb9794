/// A statement's SQL as the key of a connection's statement cache.
///
/// Equal only to the same text, but hashed from its length and its first and last 16 bytes, not
/// from every byte: the cache is looked up on every statement run, and hashing whole SQL texts
/// of a few hundred bytes was about 3% of the server's writer thread (issue 13, 6). Two texts
/// that share their length and both ends only share a bucket, and the equality check tells them
/// apart.
struct StatementKey: Hashable {
    let sql: String

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes.prefix(16)))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes.suffix(16)))
        }
    }
}
