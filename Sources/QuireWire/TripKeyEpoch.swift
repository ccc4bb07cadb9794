import Foundation

/// Which of a trip's keys sealed a field value (issue 15: removing a member rotates the trip's
/// key). The first key is epoch 1 and its values carry no mark, as before rotation existed; a
/// value sealed with the key of epoch N ≥ 2 starts `eN.` (`e2.` followed by base64, which never
/// holds a `.`). The server reads the mark to refuse values sealed with a key the trip has
/// replaced; it cannot read the value.
public enum TripKeyEpoch {
    /// The epoch of the trip's first key.
    public static let first = 1
    /// The most keys a trip may have (a removal each); a rotation past it is refused.
    public static let maximum = 10_000
    /// ``TripEntryDTO/keyForm`` of a key a rotation sealed to the member's public key.
    public static let sealedForm = "sealed"

    /// The epoch `sealedValue` says sealed it: its `eN.` mark, or 1 without one. Nil for a mark
    /// that is not a number in 2...``maximum`` (`e1.`, `e0.`, `e02.`, `e.`).
    public static func of(_ sealedValue: String) -> Int? {
        guard sealedValue.hasPrefix("e"), let dot = sealedValue.firstIndex(of: ".") else { return first }
        let digits = sealedValue[sealedValue.index(after: sealedValue.startIndex)..<dot]
        guard !digits.isEmpty, digits.count <= 5, digits.first != "0", digits.allSatisfy(\.isASCIIDigit),
            let epoch = Int(digits), epoch >= 2, epoch <= maximum
        else { return nil }
        return epoch
    }

    /// `base64` marked with `epoch` (unmarked for epoch 1).
    public static func mark(_ base64: String, epoch: Int) -> String {
        epoch == first ? base64 : "e\(epoch).\(base64)"
    }

    /// `epoch` as a DTO carries it: absent for the first, so a trip that never rotated looks as
    /// before.
    public static func shown(_ epoch: Int) -> Int? { epoch == first ? nil : epoch }

    /// `sealedValue` without its mark.
    public static func unmarked(_ sealedValue: String) -> Substring {
        guard sealedValue.hasPrefix("e"), let dot = sealedValue.firstIndex(of: ".") else { return sealedValue[...] }
        return sealedValue[sealedValue.index(after: dot)...]
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
