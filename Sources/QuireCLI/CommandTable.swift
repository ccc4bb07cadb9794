/// Every `quire` command, in the order `quire help` lists them.
enum CommandTable {
    static let all: [Command] =
        Command.notes + Command.account + Command.sync + Command.conflicts + Command.history
        + Command.trips
        + Command.tools

    static func command(named name: String) -> Command? { all.first { $0.name == name } }

    /// The command a mistyped `word` most likely meant: the only command it begins, or the nearest
    /// by edit distance when that is close (2 or fewer edits, fewer than the word's length).
    static func suggestion(for word: String) -> String? {
        let names = all.map(\.name)
        let starting = names.filter { $0.hasPrefix(word) }
        if word.count >= 2, starting.count == 1 { return starting[0] }
        let ranked = names.map { (name: $0, distance: EditDistance.between(word, $0)) }
            .min { $0.distance < $1.distance }
        guard let ranked, ranked.distance <= 2, ranked.distance < word.count else { return nil }
        return ranked.name
    }
}
