/// What the account form does.
public enum AccountFormMode: String, Sendable, Hashable, CaseIterable {
    case signIn
    case register

    /// The form's button, and the mode's name in the picker.
    public var title: String {
        switch self {
        case .signIn: "Sign in"
        case .register: "Create account"
        }
    }
}
