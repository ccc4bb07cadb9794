import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Synchronization

/// A temporary folder holding one trips database file. Call `cleanUp()` (in a `defer`).
struct TripsDatabaseFixture {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "quire-trips-db")
    }

    var fileURL: URL { directory.path("trips.sqlite") }

    /// Opens (or reopens) the database file.
    func open() throws -> TripsDatabase {
        try TripsDatabase(fileURL: fileURL)
    }

    func cleanUp() { directory.remove() }
}

/// True the first time it is claimed, false after: a hook that must act once.
final class OnceFlag: Sendable {
    private let claimed = Atomic(false)

    func claim() -> Bool {
        claimed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}

/// Field values as tests write them.
enum Lisbon {
    static let noon = "2027-06-10T12:00 Europe/Lisbon"
    static let halfPastTwelve = "2027-06-10T12:30 Europe/Lisbon"
    static let one = "2027-06-10T13:00 Europe/Lisbon"
}

extension TripsDatabase {
    /// Takes the trip's next request and has the server apply every op at the given revisions,
    /// as a finished push would.
    func acknowledgeNextRequest(of trip: TripID, from revision: Int) throws -> Int {
        var next = revision
        let request = try require(try nextRequest(for: trip, limit: 200), "a request")
        for op in request.ops {
            next += 1
            try confirmApplied(op.seq, revision: next)
        }
        return next
    }
}

/// `#require` outside a test body.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw RequireFailure(what: what) }
    return value
}

struct RequireFailure: Error {
    var what: String
}
