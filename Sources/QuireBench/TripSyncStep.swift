import Foundation
import QuireClient
import QuireWire

/// One device's sync in the trip-sync benchmark: its report, its time, and what crossed the
/// wire, by direction, with the field values each exchange carried (decoded from the bodies:
/// ops sent in `POST /v1/trips/{id}/ops`, fields received in `/changes` pages and snapshots).
struct TripSyncStep {
    /// A field of a trip or item, as the wire names it (`item` empty for the trip's own).
    struct FieldName: Hashable {
        var item: String
        var field: String
    }

    var label: String
    var report: SyncReport
    var duration: Duration
    var exchanges: [CountingTransport.Exchange]

    var bytesUp: Int { exchanges.reduce(0) { $0 + $1.requestBytes } }
    var bytesDown: Int { exchanges.reduce(0) { $0 + $1.responseBytes } }
    var bytes: Int { bytesUp + bytesDown }

    /// The field values sent, one per op.
    var valuesUp: [TripFieldDTO] {
        exchanges.filter { $0.method == "POST" && $0.path.contains("/ops") }.flatMap { exchange in
            let request = try? JSONDecoder().decode(TripOpsRequestDTO.self, from: exchange.requestBody)
            return (request?.ops ?? []).map {
                TripFieldDTO(item: $0.item, field: $0.field, value: $0.value, valueHash: $0.valueHash, revision: 0)
            }
        }
    }

    /// The field values received in change pages and snapshots.
    var valuesDown: [TripFieldDTO] {
        exchanges.filter { $0.method == "GET" }.flatMap { exchange -> [TripFieldDTO] in
            let path = exchange.path.split(separator: "?").first.map(String.init) ?? exchange.path
            if path.hasSuffix("/changes") {
                return (try? JSONDecoder().decode(TripChangesPageDTO.self, from: exchange.responseBody))?.changes ?? []
            }
            if path.hasPrefix(WireRoutes.tripsPrefix) {
                return (try? JSONDecoder().decode(TripSnapshotDTO.self, from: exchange.responseBody))?.fields ?? []
            }
            return []
        }
    }

    /// Whether it fetched a whole trip (`GET /v1/trips/{id}`).
    var fetchedSnapshot: Bool {
        exchanges.contains { exchange in
            let path = exchange.path.split(separator: "?").first.map(String.init) ?? exchange.path
            return exchange.method == "GET" && path.hasPrefix(WireRoutes.tripsPrefix) && !path.hasSuffix("/changes")
        }
    }

    /// The requests by method and route, e.g. `POST /v1/trips/{id}/ops ×18`.
    var requestSummary: String {
        var counts: [(String, Int)] = []
        for exchange in exchanges {
            var path = exchange.path.split(separator: "?").first.map(String.init) ?? exchange.path
            if path.hasPrefix(WireRoutes.tripsPrefix) {
                let rest = path.dropFirst(WireRoutes.tripsPrefix.count).split(separator: "/").dropFirst()
                path = WireRoutes.tripsPrefix + "{id}" + rest.map { "/" + $0 }.joined()
            }
            let route = "\(exchange.method) \(path)"
            if let index = counts.firstIndex(where: { $0.0 == route }) {
                counts[index].1 += 1
            } else {
                counts.append((route, 1))
            }
        }
        return counts.map { $1 == 1 ? $0 : "\($0) ×\($1)" }.joined(separator: ", ")
    }

    /// Time, bytes each way, values each way and the requests, for a row's note.
    var summary: String {
        "\(label): \(Figure.milliseconds(duration)), ↑\(Figure.bytes(bytesUp)) ↓\(Figure.bytes(bytesDown)), "
            + "\(valuesUp.count) values up, \(valuesDown.count) down (\(requestSummary))"
    }

    static func name(_ dto: TripFieldDTO) -> FieldName { FieldName(item: dto.item ?? "", field: dto.field) }
}
