import Foundation
import QuireClient
import QuireDomain

/// The orders `quire ls --sort` offers.
enum NoteListOrder: String, CaseIterable {
    /// Most recently changed first (the default, as the app's list).
    case updated
    /// Most recently created first (on this device, or first arrived here).
    case created
    /// By title, as Finder sorts names (case-insensitive, numbers by value; ``TitleSortKey``);
    /// ties newest first.
    case title

    /// The database's name for this order: its index reads the list a page at a time.
    var sort: NoteListSort {
        switch self {
        case .updated: .updated
        case .created: .created
        case .title: .title
        }
    }

    init(option: String?) throws {
        guard let option else {
            self = .updated
            return
        }
        guard let order = NoteListOrder(rawValue: option) else {
            throw CLIError.usage("--sort takes updated, created or title, not '\(option)'")
        }
        self = order
    }

    /// `items` in this order; `created` gives the creation time of an id (only `.created` asks).
    func sorted<Item>(
        _ items: [Item], id: (Item) -> NoteID, title: (Item) -> String, updatedAt: (Item) -> Date,
        created: (NoteID) -> Date
    ) -> [Item] {
        switch self {
        case .updated:
            return items.sorted { updatedAt($0) > updatedAt($1) }
        case .created:
            return items.sorted { created(id($0)) > created(id($1)) }
        case .title:
            let keyed = items.map { (item: $0, key: TitleSortKey.make(title($0))) }
            return keyed.sorted {
                $0.key == $1.key
                    ? updatedAt($0.item) > updatedAt($1.item) : $0.key.lexicographicallyPrecedes($1.key)
            }.map(\.item)
        }
    }
}
