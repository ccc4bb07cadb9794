import Foundation

extension RequestValidation {
    /// Refuses a JSON body with a NUL (`\u0000`) in a string: the stores bind text as C strings,
    /// which end at a NUL, so a payload or id with one was stored cut short after a 200, and
    /// PostgreSQL's text cannot hold one at all (issue 12, 9). An escaped backslash followed by
    /// `u0000` is six plain characters and passes.
    static func refuseNUL(in body: Data) throws(APIError) {
        let backslash = UInt8(ascii: "\\")
        let nul = Array(#"u0000"#.utf8)
        var index = body.startIndex
        while index < body.endIndex {
            guard body[index] == backslash else {
                index += 1
                continue
            }
            let escaped = body.index(after: index)
            if body[escaped...].starts(with: nul) { throw .nulInBody }
            index = body.index(escaped, offsetBy: 1, limitedBy: body.endIndex) ?? body.endIndex
        }
    }
}
