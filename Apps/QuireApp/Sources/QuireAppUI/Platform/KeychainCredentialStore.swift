#if canImport(Security)
    import Foundation
    import QuireClient
    import Security

    /// The signed-in session (tokens and the notes key) as one generic-password item in the
    /// Keychain: readable after the first unlock since boot, so a background sync can use it while
    /// the phone is locked, and bound to this device (`ThisDeviceOnly`: never in a backup or on
    /// another device).
    ///
    /// Each save replaces the item's data in one Keychain call, so a reader sees the old session or
    /// the new one. The app is one process, so it needs no refresh lock (the default
    /// `whileRefreshing`).
    struct KeychainCredentialStore: CredentialStore {
        let service: String
        let account: String

        init(service: String = "app.quire.session", account: String = "session") {
            self.service = service
            self.account = account
        }

        func load() throws -> AccountSession? {
            var query = itemQuery
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            switch status {
            case errSecSuccess:
                guard let data = item as? Data else { throw KeychainError(status: errSecDecode) }
                return try JSONDecoder().decode(AccountSession.self, from: data)
            case errSecItemNotFound:
                return nil
            default:
                throw KeychainError(status: status)
            }
        }

        func save(_ session: AccountSession) throws {
            let data = try JSONEncoder().encode(session)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            let updated = SecItemUpdate(itemQuery as CFDictionary, attributes as CFDictionary)
            if updated == errSecSuccess { return }
            guard updated == errSecItemNotFound else { throw KeychainError(status: updated) }
            let item = itemQuery.merging(attributes) { _, new in new }
            let added = SecItemAdd(item as CFDictionary, nil)
            guard added == errSecSuccess else { throw KeychainError(status: added) }
        }

        func clear() throws {
            let status = SecItemDelete(itemQuery as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
        }

        /// The one item: a generic password named by service and account. On macOS the item goes
        /// in the data-protection keychain (the iOS kind, which honours `kSecAttrAccessible`) when
        /// the app runs as a bundle; `swift run` has no entitlements for it and uses the login
        /// keychain instead.
        private var itemQuery: [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            #if os(macOS)
                if Bundle.main.bundleIdentifier != nil { query[kSecUseDataProtectionKeychain as String] = true }
            #endif
            return query
        }
    }

    /// A Keychain call failed: its status, and the system's words for it.
    struct KeychainError: Error, CustomStringConvertible {
        let status: OSStatus

        var description: String {
            let words = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "unknown error"
            return "Keychain error \(status): \(words)"
        }
    }
#endif
