import Foundation

/// Crockford's base32 (https://www.crockford.com/base32.html): digits and capital letters
/// without I, L, O and U, so what a person copies by hand cannot be misread. Reading forgives
/// case, and takes O for 0 and I or L for 1, as Crockford asks.
enum CrockfordBase32 {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// The first `symbols` symbols of `data`'s bits, most significant first. `data` holds at
    /// least `5 * symbols` bits.
    static func encode(_ data: Data, symbols: Int) -> String {
        let bytes = [UInt8](data)
        precondition(bytes.count * 8 >= symbols * 5, "not enough bits for \(symbols) symbols")
        var text = ""
        for index in 0..<symbols {
            var value = 0
            for bit in (index * 5)..<(index * 5 + 5) {
                value = value << 1 | Int(bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
            }
            text.append(alphabet[value])
        }
        return text
    }

    /// The bytes that `symbols` spell, when they are a whole number of bytes (a multiple of 8
    /// symbols); nil when one is not in the alphabet.
    static func decode(_ symbols: [Character]) -> Data? {
        guard symbols.count % 8 == 0 else { return nil }
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for symbol in symbols {
            guard let value = alphabet.firstIndex(of: symbol) else { return nil }
            buffer = buffer << 5 | value
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(buffer >> bits & 0xFF))
            }
            buffer &= (1 << bits) - 1
        }
        return Data(bytes)
    }

    /// `character` as Crockford reads it: upper case, O as 0, I and L as 1.
    /// A character whose capital is not one character (ß) is kept as it is: not in the alphabet.
    static func normalized(_ character: Character) -> Character {
        let upper = character.uppercased()
        switch upper {
        case "O": return "0"
        case "I", "L": return "1"
        default: return upper.count == 1 ? Character(upper) : character
        }
    }
}
