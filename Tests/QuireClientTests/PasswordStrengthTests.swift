import QuireClient
import Testing

/// How a new password is judged (issue 12, item 10): length, the common list, repeats and
/// sequences, the username and the app's name, and a rough count of guesses.
struct PasswordStrengthTests {
    @Test func oneCharacterIsTooShortAndSaysHowToFixIt() {
        let strength = PasswordStrength(password: "a", username: "ann")

        #expect(strength.problems == [.tooShort(length: 1)])
        #expect(
            strength.message
                == "The password is too weak: it has 1 character. Use at least 10 characters; a few unrelated "
                + "words work well.")
    }

    @Test(arguments: [
        "password1234", "Password123!", "P@ssw0rd2024", "iloveyou!!", "1234567890", "qwertyuiop", "123456789012",
        "letmein12345", "mypassword12", "trustno1trustno1", "Dragon!!!!!!",
    ])
    func commonPasswordsAndTheirUsualDisguisesAreRefused(password: String) {
        let strength = PasswordStrength(password: password, username: "ann")

        #expect(!strength.isAcceptable)
        #expect(strength.problems.contains(.common) || strength.problems.contains(.repetitive), "\(strength.problems)")
    }

    @Test(arguments: ["aaaaaaaaaaaa", "abcabcabcabc", "abcdefghijkl", "zyxwvutsrqpo", "asdfghjklasdf", "1111122222"])
    func repeatsAndSequencesAreRefused(password: String) {
        let strength = PasswordStrength(password: password, username: "ann")

        #expect(strength.problems.contains(.repetitive) || strength.problems.contains(.common), "\(strength.problems)")
    }

    @Test func theUsernameAndTheAppsNameMayNotBeInside() {
        #expect(PasswordStrength(password: "Alice-in-winter", username: "alice").problems == [.containsUsername])
        #expect(PasswordStrength(password: "my qu1re notes here", username: "bob").problems == [.containsAppName])
    }

    @Test func longDigitsAloneAreTooFewGuesses() {
        let strength = PasswordStrength(password: "4829175063", username: "ann")

        #expect(strength.problems.count == 1)
        guard case .fewGuesses = strength.problems.first else {
            Issue.record("expected fewGuesses, got \(strength.problems)")
            return
        }
        #expect(strength.advice.contains("mix letters"))
    }

    @Test(arguments: [
        "correct horse", "battery staple", "maple orbit lantern", "Tr0ub4dor&3 staple", "vier Wörter reichen",
        "4829175063xq",
    ])
    func goodPasswordsPass(password: String) {
        let strength = PasswordStrength(password: password, username: "ann")

        #expect(strength.isAcceptable, "\(strength.problems)")
        #expect(strength.message.isEmpty)
    }

    @Test func severalProblemsAreAllNamed() {
        let strength = PasswordStrength(password: "password", username: "ann")

        #expect(strength.problems == [.tooShort(length: 8), .common])
        #expect(
            strength.explanation == "it has 8 characters, and it is a common password, or one with only a little added")
        #expect(
            strength.advice
                == "Use at least 10 characters, avoid common passwords, even with digits or symbols added; "
                + "a few unrelated words work well.")
    }
}
