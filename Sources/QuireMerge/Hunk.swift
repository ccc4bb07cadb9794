/// One change between a base sequence and one side's sequence: the base symbols
/// `baseStart..<baseEnd` became the side's symbols `sideStart..<sideEnd`.
///
/// An empty base range is an insertion before base symbol `baseStart`; an empty side range is a
/// deletion. Hunks of one diff are sorted and never overlap; those of a `MyersDiff` never touch
/// either (at least one unchanged symbol lies between two of them), those of an `AnchoredDiff`
/// only beside a line edited in place.
package struct Hunk: Equatable, Sendable {
    package var baseStart: Int
    package var baseEnd: Int
    package var sideStart: Int
    package var sideEnd: Int

    package init(baseStart: Int, baseEnd: Int, sideStart: Int, sideEnd: Int) {
        self.baseStart = baseStart
        self.baseEnd = baseEnd
        self.sideStart = sideStart
        self.sideEnd = sideEnd
    }

    /// True when the side only added symbols here.
    package var isInsertion: Bool { baseStart == baseEnd }
    /// True when the side only removed symbols here.
    package var isDeletion: Bool { sideStart == sideEnd }
    /// How many symbols longer the side is than the base over this hunk.
    package var growth: Int { (sideEnd - sideStart) - (baseEnd - baseStart) }
}
