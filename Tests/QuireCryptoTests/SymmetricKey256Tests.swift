import Foundation
import QuireCrypto
import Testing

struct SymmetricKey256Tests {
    @Test(arguments: [0, 1, 16, 31, 33, 64])
    func bytesOfAnyOtherLengthAreNotAKey(length: Int) {
        #expect(SymmetricKey256(data: Data(count: length)) == nil)
    }

    @Test func thirtyTwoBytesMakeAKeyThatKeepsThem() throws {
        let bytes = Data((0..<32).map { UInt8($0) })

        let key = try #require(SymmetricKey256(data: bytes))

        #expect(key.data == bytes)
    }

    @Test func aKeyFromASliceHoldsOnlyTheSlice() throws {
        let buffer = Data((0..<40).map { UInt8($0) })

        let key = try #require(SymmetricKey256(data: buffer.dropFirst(8)))

        #expect(key.data == Data((8..<40).map { UInt8($0) }))
        #expect(key.data.startIndex == 0)
    }

    @Test func randomKeysDiffer() {
        #expect(SymmetricKey256.random() != SymmetricKey256.random())
    }

    @Test func keysWithTheSameBytesAreEqual() throws {
        let key = SymmetricKey256.random()

        #expect(try #require(SymmetricKey256(data: key.data)) == key)
    }

    @Test func printingAKeyRevealsNoBytes() throws {
        let key = try #require(SymmetricKey256(data: Data(repeating: 0xAB, count: 32)))
        var dumped = ""
        dump(key, to: &dumped)

        for text in [String(describing: key), String(reflecting: key), dumped] {
            #expect(!text.lowercased().contains("ab"))
            #expect(!text.contains("171"))
        }
    }
}
