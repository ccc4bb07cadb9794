import Foundation
import QuirePostgres
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// Requests of the history and trash routes.
extension ServerHarness {
    func get(_ path: String, query: [String: String] = [:], token: String?) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "GET", path: path, query: query,
                headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]))
    }

    /// The note's history; fails the test unless the answer is a 200.
    func history(_ id: String, token: String, query: [String: String] = [:]) async throws -> NoteHistoryDTO {
        let response = await get(WireRoutes.noteVersions(id), query: query, token: token)
        try #require(response.status == 200, "versions answered \(response.status): \(response.text)")
        return try response.decoded(NoteHistoryDTO.self)
    }

    /// The account's trash; fails the test unless the answer is a 200.
    func trash(token: String) async throws -> TrashPageDTO {
        let response = await get(WireRoutes.trash, token: token)
        try #require(response.status == 200, "trash answered \(response.status): \(response.text)")
        return try response.decoded(TrashPageDTO.self)
    }

    /// The count `sql` (a `SELECT COUNT(*)` with `$1`-style parameters) reads from the store, on a
    /// connection of the test's own beside the running server.
    func storeCount(_ sql: String, _ values: [HistoryValue] = []) async throws -> Int {
        let read: @Sendable (any HistoryDatabase) throws -> Int = { db in
            try db.historyRows(sql, values) { Int(try $0.int64At(0)) }.first ?? 0
        }
        guard let postgresConnectionString else { return try read(SQLiteConnection(path: databasePath)) }
        return try await onOwnThread { try read(PostgresConnection(postgresConnectionString)) }
    }

    /// Puts `payloads` one after another on one new note, `spacing` seconds apart; returns its id.
    func writeVersions(_ payloads: [String], token: String, spacing: TimeInterval = 60) async throws -> String {
        let id = Self.uuid()
        for (index, payload) in payloads.enumerated() {
            if index > 0 { clock.advance(by: spacing) }
            let response = await put(id, payload: payload, base: index == 0 ? nil : index, token: token)
            try #require(response.status == 200, "put answered \(response.status): \(response.text)")
        }
        return id
    }
}
