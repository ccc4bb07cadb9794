/// A store that several server instances share, which tells each instance of the changes the
/// others commit, so a long-poll held by one instance wakes when another one writes.
///
/// ``PostgresServerStorage`` does it with `LISTEN`/`NOTIFY`. ``SQLiteServerStorage`` does not
/// conform: one process owns its file, and that process's writes wake its polls in-process.
public protocol ChangeBroadcastingStorage: Sendable {
    /// Starts telling `receiver` of every change committed to the store by any instance (this
    /// one's included), and of times when some may have been missed. A second call replaces
    /// the receiver. Listening stops when the store closes.
    func startChangeListener(delivering receiver: any AccountChangeReceiver)
}
