import Foundation
import QuireDomain
import QuireWire

extension NotesAPIClient: NoteHistoryAPI {
    public func history(of id: NoteID, before: Int?, limit: Int) async throws -> NoteHistoryDTO {
        var query = ["limit=\(limit)"]
        if let before { query.append("before=\(before)") }
        let request = TransportRequest(
            method: "GET", path: WireRoutes.noteVersions(id.description) + "?" + query.joined(separator: "&"),
            timeout: requestTimeout)
        let response = try await http.send(request)
        guard response.status == 200 else { throw AuthorizedTransport.failure(response) }
        return try AuthorizedTransport.decode(NoteHistoryDTO.self, from: response)
    }

    public func trash(limit: Int) async throws -> TrashPageDTO {
        let request = TransportRequest(
            method: "GET", path: WireRoutes.trash + "?limit=\(limit)", timeout: requestTimeout)
        let response = try await http.send(request)
        guard response.status == 200 else { throw AuthorizedTransport.failure(response) }
        return try AuthorizedTransport.decode(TrashPageDTO.self, from: response)
    }
}
