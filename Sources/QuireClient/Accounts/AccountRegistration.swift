import QuireCrypto

/// What registering gives the device: its signed-in session, and the account's recovery key.
///
/// Show ``recoveryKey`` to the person once (``RecoveryKey/groupedText``) and keep no copy: the
/// device stores only ``session``. With the key, ``AccountFlows/recover(serverURL:username:recoveryKey:newPassword:deviceName:transport:iterations:)``
/// sets a new password after the old one is forgotten; without the password or the key, no one
/// can read the notes.
public struct AccountRegistration: Sendable, Equatable {
    public let session: AccountSession
    public let recoveryKey: RecoveryKey

    public init(session: AccountSession, recoveryKey: RecoveryKey) {
        self.session = session
        self.recoveryKey = recoveryKey
    }
}
