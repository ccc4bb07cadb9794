import QuireTrips
import Testing

@testable import QuirePresentation

/// The two answers a trip banner offers, in words.
struct TripConflictBannerTests {
    @Test func aChangedFieldOffersMineOrTheirs() {
        let banner = TripConflictBanner(
            item: ItemID(), field: .start, message: "Another device changed this to 12:30. Keep mine?", mine: "13:00",
            isRestore: false)
        #expect(banner.keepMineTitle == "Keep mine (13:00)")
        #expect(banner.keepTheirsTitle == "Keep theirs")
    }

    @Test func aClearedMineSaysKeepMine() {
        let banner = TripConflictBanner(item: nil, field: .title, message: "", mine: nil, isRestore: false)
        #expect(banner.keepMineTitle == "Keep mine")
    }

    @Test func aDeletedItemOffersToRestoreIt() {
        let banner = TripConflictBanner(
            item: ItemID(), field: .title, message: "This item was deleted. Restore it?", mine: nil, isRestore: true)
        #expect(banner.keepMineTitle == "Restore it")
        #expect(banner.keepTheirsTitle == "Leave it deleted")
    }
}
