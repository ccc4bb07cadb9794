import Foundation

extension RequestValidation {
    /// Refuses a JSON body with a NUL (`\u0000`) in a string: the stores bind text as C strings,
    /// which end at a NUL, so a payload or id with one was stored cut short after a 200, and
    /// PostgreSQL's text cannot hold one at all (issue 12, 9). An escaped backslash followed by
    /// `u0000` is six plain characters and passes.
    ///
    /// Runs on every request's body, so it jumps from backslash to backslash (`memchr`) over the
    /// raw bytes rather than stepping through `Data`'s indices.
    static func refuseNUL(in body: Data) throws(APIError) {
        let found = body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard let start = bytes.baseAddress else { return false }
            let nul = Array(#"u0000"#.utf8)
            var offset = 0
            while offset < bytes.count {
                guard let hit = memchr(start + offset, Int32(UInt8(ascii: "\\")), bytes.count - offset) else {
                    return false
                }
                let escaped = start.distance(to: UnsafeRawPointer(hit)) + 1
                if bytes[escaped...].starts(with: nul) { return true }
                // The escaped character is skipped: `\\` is one escaped backslash.
                offset = escaped + 1
            }
            return false
        }
        if found { throw .nulInBody }
    }
}
