/// What a server instance is told when an account's feed changed: the seam that wakes its
/// long-polls.
///
/// The server's own writes tell it in-process, after their commit; a store that several
/// instances share also tells it of the other instances' commits (see
/// ``ChangeBroadcastingStorage``). A signal is a hint to read the feed again, never the change
/// itself: one delivered twice, or late, costs a read; one never delivered costs the wait until
/// the next periodic re-check (``NotesServerConfiguration/liveUpdateRecheck``).
public protocol AccountChangeReceiver: Sendable {
    /// `account`'s `feed` committed a change: its waiting long-polls read it again.
    func accountChanged(_ account: AccountID, feed: ChangeFeed) async

    /// Changes may have been missed (the listener lost its connection and made a new one):
    /// every waiting long-poll reads its feed again.
    func changesMayHaveBeenMissed() async
}
