/// Where a `history-list` listing spends its time: the device's own history, the server's
/// through `NoteHistoryReader` (every page fetched, decoded and opened), the merge and the JSON.
struct ListingStages {
    var local = Samples()
    var server = Samples()
    var merge = Samples()
    var json = Samples()

    mutating func append(local: Duration, server: Duration, merge: Duration, json: Duration) {
        self.local.append(local)
        self.server.append(server)
        self.merge.append(merge)
        self.json.append(json)
    }

    mutating func add(_ other: ListingStages) {
        for value in other.local.durations { local.append(value) }
        for value in other.server.durations { server.append(value) }
        for value in other.merge.durations { merge.append(value) }
        for value in other.json.durations { json.append(value) }
    }

    /// `local history 0.4 ms, server's history 30.1 ms, merge 1.0 ms, JSON 8.2 ms` (medians).
    var summary: String {
        "local history \(Figure.milliseconds(local.median)), server's history (fetch, decode, open) "
            + "\(Figure.milliseconds(server.median)), merge \(Figure.milliseconds(merge.median)), "
            + "JSON \(Figure.milliseconds(json.median))"
    }
}
