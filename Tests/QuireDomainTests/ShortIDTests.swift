import QuireDomain
import QuireWire
import Testing

/// What a list shows of an id and what a person may type for it: the last 8 characters shown
/// (random in every version; a version 7 id begins with its minute), the start or the end typed.
@Suite struct ShortIDTests {
    @Test func aListShowsTheRandomEndOfAnId() throws {
        let id = try #require(NoteID("0193a1b2-c3d4-7e5f-8a6b-0c1d2e3f4a5b"))
        #expect(id.short == "2e3f4a5b")
        // Notes made in the same minute share their first 8 characters, never (but by chance)
        // their last 8.
        let sameMinute = (0..<200).map { _ in NoteID() }
        #expect(Set(sameMinute.map { $0.description.prefix(8) }).count <= 2)
        #expect(Set(sameMinute.map(\.short)).count == 200)
    }

    @Test func aTypedIdNamesAnIdItBeginsOrEndsInAnyCase() throws {
        let id = try #require(NoteID("0193a1b2-c3d4-7e5f-8a6b-0c1d2e3f4a5b"))
        #expect(id.isNamed(by: "2e3f4a5b"))
        #expect(id.isNamed(by: "2E3F4A5B"))
        #expect(id.isNamed(by: "4a5b"))
        #expect(id.isNamed(by: "0193a1"))
        #expect(id.isNamed(by: id.description))
        #expect(!id.isNamed(by: "c3d4"))
        #expect(!id.isNamed(by: "2e3f4a5c"))
    }

    /// A person types the start of what the list shows, as with git's short hashes: the list
    /// showed `2e3f4a5b`, and `2e3f` found nothing (it is neither the id's start nor its end).
    @Test func theStartOfTheShownCharactersNamesTheId() throws {
        let id = try #require(NoteID("0193a1b2-c3d4-7e5f-8a6b-0c1d2e3f4a5b"))
        #expect(id.isNamed(by: "2e3f"))
        #expect(id.isNamed(by: "2E3F4A"))
        #expect(!id.isNamed(by: "e3f4"), "inside the shown characters is not their start")
        #expect(!id.isNamed(by: "2e3"), "4 characters at least")
    }
}
