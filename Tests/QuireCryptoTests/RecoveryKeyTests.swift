import Foundation
import QuireCrypto
import Testing

/// The recovery key's text form (Crockford base32 in groups, with a checksum group) and the two
/// keys derived from it.
struct RecoveryKeyTests {
    @Test func aKeyIsShownAsNineGroupsOfFourAndReadsBack() throws {
        let key = RecoveryKey.random()
        let text = key.groupedText
        let groups = text.split(separator: "-")

        #expect(key.data.count * 8 >= 128)
        #expect(groups.count == 9)
        #expect(groups.allSatisfy { $0.count == 4 })
        #expect(text.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ-".contains($0) })
        #expect(try RecoveryKey(parsing: text) == key)
    }

    @Test func readingForgivesCaseSpacesAndLookAlikes() throws {
        let key = try #require(RecoveryKey(data: Data(repeating: 0, count: 20)))
        let text = key.groupedText
        #expect(text.hasPrefix("0000-0000"))

        let typed = text.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "0", with: "o")
        #expect(try RecoveryKey(parsing: "  " + typed + "\n") == key)
        let ones = try #require(RecoveryKey(data: Data(repeating: 0x08, count: 20)))
        #expect(ones.groupedText.contains("1"))
        #expect(try RecoveryKey(parsing: ones.groupedText.replacingOccurrences(of: "1", with: "l")) == ones)
    }

    @Test func everySingleTypoIsCaughtByTheChecksum() throws {
        let key = RecoveryKey.random()
        let symbols = Array(key.groupedText.replacingOccurrences(of: "-", with: ""))
        var caught = 0
        for index in 0..<32 {
            var typo = symbols
            typo[index] = typo[index] == "7" ? "8" : "7"
            #expect(throws: RecoveryKeyError.mistyped) { try RecoveryKey(parsing: String(typo)) }
            caught += 1
        }
        #expect(caught == 32)
    }

    @Test(arguments: [
        "", "ABCD-EFGH", "quire", String(repeating: "A", count: 35) + "U", String(repeating: "A", count: 35) + "ß",
    ])
    func textOfTheWrongShapeIsNotAKey(text: String) {
        let error = #expect(throws: RecoveryKeyError.self) { try RecoveryKey(parsing: text) }
        #expect(error == .malformed)
        #expect(error?.message.contains("9 groups of 4") == true)
    }

    @Test func theDerivedKeysAreStableDistinctAndNotTheKey() throws {
        let key = RecoveryKey.random()
        let again = try RecoveryKey(parsing: key.groupedText)

        #expect(key.wrappingKey == again.wrappingKey)
        #expect(key.authKey == again.authKey)
        #expect(key.wrappingKey != key.authKey)
        #expect(key.authKey.data.prefix(20) != key.data)
        #expect(RecoveryKey.random().authKey != key.authKey)
    }

    @Test func descriptionsShowNothingOfTheKey() {
        let key = RecoveryKey.random()
        #expect("\(key)" == "RecoveryKey(redacted)")
        #expect(!String(reflecting: key).contains(key.groupedText))
    }
}
