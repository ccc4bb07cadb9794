import Foundation
import QuireCrypto
import QuireTrips

/// How a trip's key travels to the server for this account (issue 14; sharing wraps it for each
/// member instead): sealed with the account's notes key, AES-256-GCM, with associated data
/// `quire-trip-key-v1|<account>|<trip>`, as base64 of the combined form. The server cannot open
/// it, nor hand one trip's wrapped key to another trip or account unnoticed.
public struct TripKeyWrapping: Sendable {
    private let notesKey: SymmetricKey256
    private let account: AccountID

    /// - Parameter account: the server's account id (``AccountSession/account``), as for notes.
    public init(notesKey: SymmetricKey256, account: AccountID) {
        self.notesKey = notesKey
        self.account = account
    }

    /// The trip key sealed for the server. Two wraps of one key differ.
    public func wrap(_ tripKey: SymmetricKey256, trip: TripID) throws -> String {
        do {
            return try AESGCM.seal(tripKey.data, key: notesKey, associatedData: associatedData(trip))
                .base64EncodedString()
        } catch {
            throw TripSealingError(.failed, "wrapping the trip key failed: \(error)")
        }
    }

    /// The trip key from what ``wrap(_:trip:)`` made for the same trip and account.
    /// - Throws: ``TripSealingError`` `.unreadable` for anything else.
    public func unwrap(_ wrapped: String, trip: TripID) throws -> SymmetricKey256 {
        guard let combined = Data(base64Encoded: wrapped),
            let opened = try? AESGCM.open(combined, key: notesKey, associatedData: associatedData(trip)),
            let key = SymmetricKey256(data: opened)
        else {
            throw TripSealingError(
                .unreadable, "the key of trip \(trip) does not open with this account's notes key")
        }
        return key
    }

    private func associatedData(_ trip: TripID) -> Data {
        Data("quire-trip-key-v1|\(account.rawValue)|\(trip)".utf8)
    }
}
