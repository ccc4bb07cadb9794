import Foundation

extension QuireDevice {
    /// A reader of what the server kept of this account's notes (history and trash), opening
    /// payloads with the notes key; nil when this device has never signed in. Its token provider
    /// is its own: use it apart from a sync of this device in the same process.
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeHistoryReader(transport: HTTPTransport? = nil) async throws -> NoteHistoryReader? {
        guard let session = try credentials.load() else { return nil }
        let transport = transport ?? LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        let tokens = SessionTokenProvider(store: credentials, accounts: AccountsAPIClient(transport: transport))
        return NoteHistoryReader(
            api: NotesAPIClient(transport: transport, tokens: tokens),
            codec: SealedPayloadCodec(notesKey: try session.notesKeyValue(), account: session.account),
            ownDevice: try await database.deviceLabel())
    }
}
