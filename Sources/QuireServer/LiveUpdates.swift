/// The server's long-poll wake-up: one ``ChangeNotifier`` per feed, told of changes through
/// ``AccountChangeReceiver`` by this instance's writes and, on a shared store, by the store's
/// listener.
final class LiveUpdates: AccountChangeReceiver {
    /// Wakes long-polls of the notes feed.
    let notes = ChangeNotifier()
    /// Wakes long-polls of the trips feed; separate from ``notes`` so a note saved does not end
    /// a trips poll, nor a trip change a notes poll.
    let trips = ChangeNotifier()

    func notifier(for feed: ChangeFeed) -> ChangeNotifier {
        switch feed {
        case .notes: notes
        case .trips: trips
        }
    }

    func accountChanged(_ account: AccountID, feed: ChangeFeed) async {
        await notifier(for: feed).changed(account)
    }

    func changesMayHaveBeenMissed() async {
        await notes.wakeAll()
        await trips.wakeAll()
    }

    /// Ends every wait for good: the server is stopping.
    func shutDown() async {
        await notes.shutDown()
        await trips.shutDown()
    }

    /// The long-polls waiting now, both feeds.
    var waiterCount: Int {
        get async { await notes.waiterCount + trips.waiterCount }
    }
}
