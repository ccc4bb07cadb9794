/// The text `merge-file` prints for a clash: the lines both sides share at the start and the end,
/// and between them each side's lines within git's markers.
///
/// The sync keeps both whole texts on a clash (a conflict copy), so nothing here is merged: the
/// block holds all of MINE's and all of THEIRS' lines between the first and the last line where
/// they differ. A side whose last line has no line break gets one before the next marker.
enum ConflictMarkers {
    static func text(mine: String, theirs: String, mineLabel: String, theirsLabel: String) -> String {
        let mineLines = lines(mine)
        let theirLines = lines(theirs)
        var start = 0
        while start < mineLines.count, start < theirLines.count, mineLines[start] == theirLines[start] {
            start += 1
        }
        var end = 0
        while end < mineLines.count - start, end < theirLines.count - start,
            mineLines[mineLines.count - 1 - end] == theirLines[theirLines.count - 1 - end]
        {
            end += 1
        }
        func closed(_ part: ArraySlice<Substring>) -> String {
            let text = part.joined()
            return text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        }
        return mineLines[..<start].joined() + "<<<<<<< \(mineLabel)\n"
            + closed(mineLines[start..<(mineLines.count - end)]) + "=======\n"
            + closed(theirLines[start..<(theirLines.count - end)]) + ">>>>>>> \(theirsLabel)\n"
            + mineLines[(mineLines.count - end)...].joined()
    }

    /// Lines with their line breaks; the last may have none.
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        for index in text.indices where text[index] == "\n" {
            result.append(text[start...index])
            start = text.index(after: index)
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }
}
