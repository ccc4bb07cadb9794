import Foundation

// MARK: - The account and the engine's run record

extension TripsDatabase {
    /// Binds the database to `account` (nil: unbound). A different account also forgets the
    /// trips feed's cursor. Throws ``TripsDatabaseError`` `.wrongAccount` (nothing changes) when
    /// the database is bound to another account and holds trips: one account's trips must never
    /// be uploaded into another's.
    public func bindAccount(_ account: AccountID?) throws {
        try write {
            let bound = try readMeta(.account)
            guard bound != account?.rawValue else { return }
            if let bound, account != nil, try holdsTrips() {
                throw TripsDatabaseError(
                    .wrongAccount, "this device holds the trips of account \(bound); sign out first")
            }
            try writeMeta(.account, account?.rawValue)
            try connection.run("DELETE FROM sync_state WHERE scope = ?", Self.tripsFeedScope)
        }
    }

    /// The account this database syncs with; nil before the first sign-in.
    public func boundAccount() throws -> AccountID? {
        try readMeta(.account).map(AccountID.init)
    }

    /// The trips engine's last stored record of its runs.
    public func runRecord() throws -> SyncRunRecord {
        guard let json = try readMeta(.run),
            let record = try? JSONDecoder().decode(SyncRunRecord.self, from: Data(json.utf8))
        else { return SyncRunRecord() }
        return record
    }

    /// Stores the trips engine's record of its runs and publishes the status.
    public func recordRun(_ record: SyncRunRecord) throws {
        try write {
            try writeMeta(.run, String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
        }
    }
}
