import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// Sign-in, registration and sign-out (seed 000): the form's rules, and the warning before
/// signing out erases changes that never reached the server.
@MainActor
struct AccountViewModelTests {
    let service = FakeAccountService()

    func model(signedIn: SignedInAccount? = nil) -> AccountViewModel {
        AccountViewModel(service: service, account: signedIn)
    }

    func filled(_ model: AccountViewModel, server: String = "notes.example.com") -> AccountViewModel {
        model.server = server
        model.username = "ada"
        model.password = "correct horse battery"
        return model
    }

    @Test func submittingNeedsEveryField() {
        let model = model()
        #expect(!model.canSubmit)
        model.server = "notes.example.com"
        model.username = "  "
        model.password = "secret"
        #expect(!model.canSubmit)
        model.username = "ada"
        #expect(model.canSubmit)
    }

    @Test func anAddressWithoutASchemeIsHTTPS() async {
        let model = filled(model())
        await model.submit()

        #expect(service.recorded == ["signIn https://notes.example.com ada correct horse battery"])
        #expect(model.account == SignedInAccount(username: "ada", server: "https://notes.example.com"))
        #expect(model.password.isEmpty)
        #expect(model.problem == nil)
    }

    @Test(arguments: ["http://notes.example.com", "ftp://notes.example.com"])
    func onlyHTTPSServersAreTalkedTo(address: String) async {
        let model = filled(model(), server: address)
        await model.submit()

        #expect(service.recorded.isEmpty)
        #expect(model.account == nil)
        #expect(model.problem == "Use an https:// address: the app talks to servers only over HTTPS.")
    }

    @Test func anAddressWithNoHostIsRefused() async {
        let model = filled(model(), server: "https://")
        await model.submit()

        #expect(service.recorded.isEmpty)
        #expect(model.problem == "“https://” is not a server address.")
    }

    @Test func aFailedSignInSaysWhyAndStaysSignedOut() async {
        service.fail()
        let model = filled(model())
        await model.submit()

        #expect(model.account == nil)
        #expect(model.problem == "Couldn't sign in: wrong username or password")
        #expect(!model.isWorking)
        #expect(model.submitTitle == "Sign in")
    }

    @Test func registeringShowsTheRecoveryKeyOnce() async {
        let model = filled(model())
        model.mode = .register
        #expect(model.submitTitle == "Create account")
        await model.submit()

        #expect(service.recorded == ["register https://notes.example.com ada correct horse battery"])
        #expect(model.account?.username == "ada")
        #expect(model.recoveryKey == "ABCD-EFGH")
        model.dismissRecoveryKey()
        #expect(model.recoveryKey == nil)
    }

    @Test func signingOutWithNothingUnsyncedAsksNothing() async {
        let model = model(signedIn: SignedInAccount(username: "ada", server: "https://notes.example.com"))
        await model.requestSignOut()

        #expect(model.signOutWarning == nil)
        #expect(service.recorded == ["signOut"])
        #expect(model.account == nil)
        #expect(model.notice == "Signed out. This device's notes were erased; the account keeps every synced note.")
    }

    @Test func signingOutWithUnsyncedChangesWarnsFirst() async {
        service.status(SyncStatus(lastSyncedAt: Harness.now, pendingCount: 3))
        let model = model(signedIn: SignedInAccount(username: "ada", server: "https://notes.example.com"))
        await model.requestSignOut()

        #expect(model.signOutWarning == "3 changes haven't synced and will be lost.")
        #expect(service.recorded.isEmpty)
        #expect(model.account != nil)

        model.cancelSignOut()
        #expect(model.signOutWarning == nil)
        #expect(model.account != nil)

        await model.requestSignOut()
        await model.confirmSignOut()
        #expect(service.recorded == ["signOut"])
        #expect(model.account == nil)
    }

    @Test func aServerThatWasNotToldIsSaidSo() async {
        service.serverNotTold("The server could not be told; its session ends when its tokens expire.")
        let model = model(signedIn: SignedInAccount(username: "ada", server: "https://notes.example.com"))
        await model.requestSignOut()

        #expect(
            model.notice
                == "Signed out. This device's notes were erased; the account keeps every synced note. "
                + "The server could not be told; its session ends when its tokens expire.")
    }
}
