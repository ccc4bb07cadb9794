/// The statements of a nested transaction at one depth (``SQLiteConnection/transaction(_:)``):
/// the same text at the same depth every time, so the connection prepares each once.
struct Savepoint {
    let begin: String
    let release: String
    let rollBack: String

    init(depth: Int) {
        if depth < Self.shallow.count {
            self = Self.shallow[depth]
        } else {
            self.init(name: "quire_sp\(depth)")
        }
    }

    private init(name: String) {
        begin = "SAVEPOINT \(name)"
        release = "RELEASE \(name)"
        rollBack = "ROLLBACK TO \(name); RELEASE \(name)"
    }

    /// The texts of the depths a write reaches, made once rather than on every transaction.
    private static let shallow = (0..<4).map { Savepoint(name: "quire_sp\($0)") }
}
