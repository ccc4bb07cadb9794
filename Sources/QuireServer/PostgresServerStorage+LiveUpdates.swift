import Foundation
import QuirePostgres

/// Live updates across instances: `NOTIFY` in each write's transaction, `LISTEN` on a
/// connection each instance keeps for it.
///
/// A write that changes an account's feed runs `pg_notify('quire_changes', 'notes 42')` (or
/// `trips 42`) before its commit: PostgreSQL delivers a notification only when, and after, its
/// transaction commits, so a woken long-poll always finds the change. The listener
/// (``PostgresListener``) wakes this instance's polls of that account's feed; when it makes a
/// new connection (the first, or one after a break, when notifications may have been lost) it
/// wakes every poll. Nothing depends on a notification arriving: polls also read again every
/// ``NotesServerConfiguration/liveUpdateRecheck``.
extension PostgresServerStorage: ChangeBroadcastingStorage {
    /// The channel every instance of one database listens on.
    static let changeChannel = "quire_changes"

    public func startChangeListener(delivering receiver: any AccountChangeReceiver) {
        guard changeNotifications else { return }
        let started = PostgresListener(
            connectionString: connectionString, channel: Self.changeChannel,
            onConnect: { Task { await receiver.changesMayHaveBeenMissed() } },
            onNotification: { payload in
                guard let (feed, account) = Self.change(payload) else { return }
                Task { await receiver.accountChanged(account, feed: feed) }
            })
        listener.withLock { listener in
            listener?.stop()
            // Checked under the listener's lock, which `close` takes after marking the store
            // closed: a listener started as the store closes is stopped here or there.
            if closed.withLock({ $0 }) {
                started.stop()
                listener = nil
            } else {
                listener = started
            }
        }
    }

    /// Announces, inside the caller's transaction, that `account`'s `feed` changed. Does nothing
    /// when notifications are off.
    func announce(_ feed: ChangeFeed, _ accounts: some Sequence<AccountID>, db: PostgresConnection) throws {
        guard changeNotifications else { return }
        for account in Set(accounts) {
            try db.query("SELECT pg_notify($1, $2)", Self.changeChannel, Self.payload(feed, account))
        }
    }

    /// The listening connection's server process now, for tests that cut it.
    var listenerBackendProcessID: Int32? { listener.withLock { $0?.backendProcessID } }

    /// How many listening connections were made so far.
    var listenerConnections: Int { listener.withLock { $0?.connections ?? 0 } }

    static func payload(_ feed: ChangeFeed, _ account: AccountID) -> String {
        "\(feed.rawValue) \(account.rawValue)"
    }

    static func change(_ payload: String) -> (ChangeFeed, AccountID)? {
        let parts = payload.split(separator: " ")
        guard parts.count == 2, let feed = ChangeFeed(rawValue: String(parts[0])), let id = Int64(parts[1])
        else { return nil }
        return (feed, AccountID(id))
    }
}
