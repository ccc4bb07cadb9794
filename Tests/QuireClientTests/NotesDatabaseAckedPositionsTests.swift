import Foundation
import QuireClient
import QuireDomain
import Testing

/// The positions of acknowledged writes that pulls send for the server to check (issue 9: a
/// server restored to a backup from between a device's last pull and its writes).
struct NotesDatabaseAckedPositionsTests {
    private func acknowledge(_ body: String, at position: String, in database: NotesDatabase) async throws {
        try await database.saveNote(id: NoteID(), title: "T", body: body)
        let change = try #require(try await database.nextChange())
        try await database.complete(change.id, version: 1, position: Cursor(position))
    }

    @Test func everyPositionSinceTheLastCheckIsKeptAndACheckKeepsOnlyTheNewest() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        #expect(try await database.ackedPositions() == AckedPositions())

        try await acknowledge("one", at: "p1", in: database)
        try await acknowledge("two", at: "p2", in: database)

        #expect(try await database.ackedPositions() == AckedPositions(unverified: [Cursor("p1"), Cursor("p2")]))
        try await database.positionsVerified()
        #expect(try await database.ackedPositions() == AckedPositions(verified: Cursor("p2")))
        try await acknowledge("three", at: "p3", in: database)
        #expect(try await database.ackedPositions().all == [Cursor("p2"), Cursor("p3")])
    }

    @Test func aFinishedPullsCursorReplacesThemAll() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await acknowledge("one", at: "p1", in: database)

        try await database.positionsVerified(through: Cursor("end"))

        #expect(try await database.ackedPositions() == AckedPositions(verified: Cursor("end")))
    }

    @Test func theyOutliveARelaunch() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        try await acknowledge("one", at: "p1", in: try fixture.open())

        #expect(try await fixture.open().ackedPositions().all == [Cursor("p1")])
    }

    @Test func aServerThatForgotWritesForgetsThemButAnExpiredCursorDoesNot() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await acknowledge("one", at: "p1", in: database)

        try await database.beginFullResync(.cursorExpired)
        #expect(try await database.ackedPositions().all == [Cursor("p1")])
        try await database.beginFullResync(.serverForgot)
        #expect(try await database.ackedPositions() == AckedPositions())
    }

    @Test func unbindingTheAccountForgetsThem() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(AccountID("first"))
        try await acknowledge("one", at: "p1", in: database)

        try await database.bindAccount(nil)

        #expect(try await database.ackedPositions() == AckedPositions())
    }
}
