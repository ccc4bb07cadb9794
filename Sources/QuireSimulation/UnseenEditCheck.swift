/// "An edit a delete never saw is not lost, on any device" (seed 002 §5, issue 15): the pure part
/// of the check, fed the server's unseen edits and what one device offers.
enum UnseenEditCheck {
    /// The unseen edits (`trip/item/field` keys: a value of a deleted item written after the
    /// newest revision its delete had seen) one device that synced to the end does not offer
    /// back (`offered`: its `trip/item/field#deleted` keys), less those of items it deleted
    /// itself or whose offer its person settled (`excused`: `trip/item` keys). Sorted.
    static func missing(expected: Set<String>, offered: Set<String>, excused: Set<String>) -> [String] {
        expected.filter { key in
            guard !offered.contains(key + "#deleted") else { return false }
            let item = key.split(separator: "/").prefix(2).joined(separator: "/")
            return !excused.contains(item)
        }.sorted()
    }
}
