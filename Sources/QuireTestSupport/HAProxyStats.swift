/// One reading of haproxy's stats page in CSV (`/stats;csv`): a row per frontend, server and
/// backend, keyed by proxy and server name (`quire_instances` / `quire1`; a proxy's own rows are
/// `FRONTEND` and `BACKEND`).
public struct HAProxyStats: Sendable {
    private let rows: [String: [String: String]]

    /// Reads the CSV: a header line `# pxname,svname,…`, then one line per row. Throws
    /// ``HAProxyError`` when the header is missing.
    public init(csv: String) throws {
        let lines = csv.split(separator: "\n").map(String.init)
        guard let header = lines.first, header.hasPrefix("# ") else {
            throw HAProxyError("haproxy's stats answered no CSV header: \(csv.prefix(200))")
        }
        let names = header.dropFirst(2).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var rows: [String: [String: String]] = [:]
        for line in lines.dropFirst() {
            let values = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let row = Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first })
            guard let proxy = row["pxname"], let server = row["svname"] else { continue }
            rows["\(proxy)/\(server)"] = row
        }
        self.rows = rows
    }

    /// The field `field` (`status`, `stot`, `hrsp_5xx`, …) of `server` in `proxy`, or nil.
    public func value(_ proxy: String, _ server: String, _ field: String) -> String? {
        rows["\(proxy)/\(server)"]?[field]
    }

    /// A counter field as a number; 0 when empty or missing (haproxy leaves counters a row
    /// does not keep empty).
    public func count(_ proxy: String, _ server: String, _ field: String) -> Int {
        value(proxy, server, field).flatMap { Int($0) } ?? 0
    }

    /// Whether haproxy's health check has `server` of `proxy` up.
    public func isUp(_ proxy: String, _ server: String) -> Bool {
        value(proxy, server, "status")?.hasPrefix("UP") == true
    }
}
