import Foundation

extension QuireDevice {
    /// Sharing this account's trips and joining others', through the server this device signed
    /// in to; nil when it has never signed in. Its token provider is its own, as the history
    /// reader's is.
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeTripSharing(transport: HTTPTransport? = nil) throws -> TripSharing? {
        guard let session = try credentials.load() else { return nil }
        let transport = transport ?? LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        let tokens = SessionTokenProvider(store: credentials, accounts: AccountsAPIClient(transport: transport))
        return TripSharing(
            api: TripSharingAPIClient(transport: transport, tokens: tokens), database: trips,
            notesKey: try session.notesKeyValue(), account: session.account, username: session.username,
            server: session.serverURL)
    }
}
