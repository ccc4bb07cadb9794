import Foundation
import QuireClient
import QuireTestSupport
import QuireWire
import Testing

/// The session at rest on Linux: a 0600 file, refused when its permissions are looser.
struct AccountsCredentialStoreTests {
    static let session = AccountSession(
        serverURL: URL(string: "http://quire.test:8080")!, username: "ada", accountId: "acct-1",
        accessToken: "access-1", refreshToken: "refresh-1",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_900_000_000.123),
        notesKey: Data(repeating: 9, count: 32).base64EncodedString(),
        kdf: KDFParametersDTO(salt: Data(count: 16).base64EncodedString(), iterations: 600_000))

    func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test func savedSessionIsReadBackFromAnOwnerOnlyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(directory: directory.path("device"))

        try store.save(Self.session)

        #expect(try mode(of: store.fileURL) == 0o600)
        #expect(try FileCredentialStore(directory: directory.path("device")).load() == Self.session)
    }

    @Test func savingAgainReplacesTheSession() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(directory: directory.url)
        try store.save(Self.session)

        try store.save(Self.session.signedOut())

        #expect(try store.load() == Self.session.signedOut())
        #expect(try mode(of: store.fileURL) == 0o600)
    }

    @Test func noFileMeansNoSession() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }

        #expect(try FileCredentialStore(directory: directory.url).load() == nil)
    }

    @Test func fileOthersCanReadIsRefusedWithTheFix() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(directory: directory.url)
        try store.save(Self.session)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.fileURL.path)

        let error = try #require(throws: SecretFileError.self) { try store.load() }

        #expect(error.description.contains("chmod 600"))
        #expect(error.description.contains(store.fileURL.path))
        #expect(try mode(of: store.fileURL) == 0o644, "the file is not silently tightened")
    }

    @Test func clearRemovesTheSession() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(directory: directory.url)
        try store.save(Self.session)

        try store.clear()
        try store.clear()

        #expect(try store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
    }

    @Test func damagedFileIsUnreadableSession() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(directory: directory.url)
        try SecretFile.write(Data("{not json".utf8), to: store.fileURL)

        #expect(throws: AccountError.unreadableSession) { try store.load() }
    }

    @Test func sessionTextShowsNoTokenOrKey() {
        let text = "\(Self.session) \(String(reflecting: Self.session))"

        #expect(!text.contains("access-1"))
        #expect(!text.contains("refresh-1"))
        #expect(!text.contains(Self.session.notesKey))
        #expect(text.contains("ada"))
    }
}
