import Foundation
import QuireTestSupport
import Testing

/// `quire trip …` with no server: output and exit codes of the built binary (a device plans a
/// trip offline).
@Suite struct TripCLICommandTests {
    @Test func newPrintsTheTripIdAndListMarksItUnsynced() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        #expect(try await device.ok("trip", "ls").hasPrefix("No trips yet."))
        let (trip, _) = try await device.lisbonWithLunch()
        #expect(UUID(uuidString: trip) != nil)
        #expect(
            try await device.ok("trip", "ls")
                == "\(trip.suffix(8))  Lisbon  2027-06-09 to 2027-06-12  1 item  [not synced]")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(try await device.ok("trip", "ls", "--json").utf8))
                as? [[String: Any]])
        #expect(listed.first?["id"] as? String == trip)
        #expect(listed.first?["state"] as? String == "pending")
        let title = try #require((listed.first?["fields"] as? [String: Any])?["title"] as? [String: Any])
        #expect(title["value"] as? String == "Lisbon")
        #expect(title["revision"] as? Int == 0)
    }

    @Test func showPrintsEachDayAndItsItemsInTimeOrderWithTheirZonesAndBadges() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        try await device.ok("trip", "edit", lunch, "--end", "2027-06-10 13:30", "--location", "Time Out Market")
        let flight = try await device.ok(
            "trip", "add", trip, "--title", "Flight home", "--kind", "flight", "--at", "2027-06-12 10:00", "--zone",
            "Europe/Lisbon", "--end", "2027-06-12 13:00", "--end-zone", "America/New_York")
        let breakfast = try await device.ok(
            "trip", "add", trip, "--title", "Breakfast", "--at", "2027-06-10 08:00", "--zone", "Europe/Lisbon")
        let hat = try await device.ok("trip", "add", String(trip.prefix(6)), "--title", "Buy a hat")
        let show = try await device.ok("trip", "show", String(trip.prefix(5)))
        #expect(
            show.split(separator: "\n", omittingEmptySubsequences: false) == [
                "Lisbon  2027-06-09 to 2027-06-12  (\(trip.suffix(8)))  [19 changes not synced]",
                "Times in each item's own zone.",
                "",
                "2027-06-10",
                "  08:00 Europe/Lisbon  Breakfast  [not synced]  \(breakfast.suffix(8))",
                "  12:00–13:30 Europe/Lisbon  Lunch  (meal)  [not synced]  \(lunch.suffix(8))",
                "      at Time Out Market",
                "",
                "2027-06-12",
                "  10:00 Europe/Lisbon → 13:00 America/New_York  Flight home  (flight)  [not synced]  \(flight.suffix(8))",
                "      lasts 8 h",
                "",
                "Unscheduled",
                "  Buy a hat  [not synced]  \(hat.suffix(8))",
            ])
    }

    @Test func theViewersZoneShowsEveryTimeConvertedAndKeepsTheDays() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        let newYork = ["TZ": "America/New_York"]
        let result = try await device.run("trip", "show", trip, "--zone", "viewer", environment: newYork)
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Times in your zone, America/New_York."))
        #expect(result.stdout.contains("2027-06-10\n  07:00 America/New_York  Lunch"))
        let shown = try #require(try await device.trip(trip, zone: "viewer", environment: newYork).item(lunch))
        #expect(shown.start?.shown == "2027-06-10T07:00 America/New_York")
        #expect(shown.start?.local == "2027-06-10T12:00")
        #expect(shown.start?.zone == "Europe/Lisbon")
    }

    @Test func addAfterAndMovesPlaceItemsWithinTheirDay() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let trip = try await device.ok("trip", "new", "Porto")
        let a = try await device.ok("trip", "add", trip, "--title", "A")
        let b = try await device.ok("trip", "add", trip, "--title", "B")
        try await device.ok("trip", "add", trip, "--title", "C", "--after", String(a.suffix(6)))
        #expect(try await device.trip(trip).items.map(\.title) == ["A", "C", "B"])
        try await device.ok("trip", "move", b, "--first")
        #expect(try await device.trip(trip).items.map(\.title) == ["B", "A", "C"])
        try await device.ok("trip", "move", a, "--last")
        #expect(try await device.trip(trip).items.map(\.title) == ["B", "C", "A"])
        try await device.ok("trip", "move", a, "--before", b)
        #expect(try await device.trip(trip).items.map(\.title) == ["A", "B", "C"])
    }

    @Test func editChangesOnlyTheFieldsGivenAndAZoneAloneKeepsTheLocalTime() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        try await device.ok("trip", "edit", lunch, "--location", "Mercado", "--notes", "book ahead")
        try await device.ok("trip", "edit", lunch, "--zone", "Europe/Madrid", "--location", "")
        let item = try #require(try await device.trip(trip).item(lunch))
        #expect(item.start?.local == "2027-06-10T12:00")
        #expect(item.start?.zone == "Europe/Madrid")
        #expect(item.location == nil)
        #expect(item.notes == "book ahead")
        #expect(item.title == "Lunch")
        #expect(item.kind == "meal")
        #expect(item.fields["start"]?.state == "pending")
    }

    /// `--at ''` unschedules an item and `--end ''` clears its end, as the help says: both were
    /// dropped ("needs at least one field to change"), and silently when given with another flag.
    @Test func anEmptyAtUnschedulesAnItemAndAnEmptyEndClearsItsEnd() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        try await device.ok("trip", "edit", lunch, "--end", "2027-06-10 13:30")
        try await device.ok("trip", "edit", lunch, "--end", "")
        #expect(try await device.trip(trip).item(lunch)?.end == nil)
        #expect(try await device.trip(trip).item(lunch)?.start?.local == "2027-06-10T12:00")
        try await device.ok("trip", "edit", lunch, "--at", "", "--title", "Lunch, some day")
        let item = try #require(try await device.trip(trip).item(lunch))
        #expect(item.start == nil)
        #expect(item.title == "Lunch, some day")
    }

    /// A value too long to sync is refused where it is typed: it used to be refused at the sync
    /// while the item's other fields went out, and the other members saw an "(untitled)" item.
    @Test func aValueTooLongToSyncIsRefusedWhenTyped() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        let long = String(repeating: "T", count: 70_000)
        let added = try await device.run("trip", "add", trip, "--title", long, "--kind", "meal")
        #expect(added.exitCode == 64, "\(added.stderr)")
        #expect(added.stderr.contains("too long to sync"), "\(added.stderr)")
        #expect(try await device.trip(trip).items.map(\.title) == ["Lunch"])
        let edited = try await device.run("trip", "edit", lunch, "--notes", long)
        #expect(edited.exitCode == 64, "\(edited.stderr)")
        #expect(try await device.trip(trip).item(lunch)?.notes == nil)
        // What fits goes through.
        try await device.ok("trip", "edit", lunch, "--notes", String(repeating: "n", count: 40_000))
    }

    /// `trip edit TRIP` renames a trip and changes its dates: nothing could, and a typo in a
    /// trip's title was fixed only by deleting the whole trip.
    @Test func editGivenATripRenamesItAndChangesItsDates() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let trip = try await device.ok("trip", "new", "Lisbn", "--from", "2027-06-09", "--to", "2027-06-12")
        try await device.ok("trip", "edit", String(trip.suffix(8)), "--title", "Lisbon", "--to", "2027-06-14")
        var shown = try await device.trip(trip)
        #expect(shown.title == "Lisbon")
        #expect(try await device.ok("trip", "ls").contains("Lisbon"))
        try await device.ok("trip", "edit", trip, "--to", "")
        shown = try await device.trip(trip)
        #expect(shown.title == "Lisbon")
        let backwards = try await device.run("trip", "edit", trip, "--from", "2027-07-01", "--to", "2027-06-01")
        #expect(backwards.exitCode == 64, "\(backwards.stderr)")
        let itemFlag = try await device.run("trip", "edit", trip, "--at", "2027-06-10 12:00")
        #expect(itemFlag.exitCode == 64)
        #expect(itemFlag.stderr.contains("--at"), "\(itemFlag.stderr)")
    }

    /// A move that changes nothing shown is refused with why (it reported success and queued an
    /// order change no one could see), and an item cannot go next to itself.
    @Test func aMoveAcrossTimesOrNextToItselfIsRefusedWithWhy() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let trip = try await device.ok("trip", "new", "Day")
        let breakfast = try await device.ok(
            "trip", "add", trip, "--title", "Breakfast", "--at", "2027-06-10 08:00", "--zone", "Europe/Lisbon")
        let dinner = try await device.ok(
            "trip", "add", trip, "--title", "Dinner", "--at", "2027-06-10 20:00", "--zone", "Europe/Lisbon")
        let across = try await device.run(
            "trip", "move", String(dinner.suffix(8)), "--before", String(breakfast.suffix(8)))
        #expect(across.exitCode == 64, "\(across.stderr)")
        #expect(across.stderr.contains("not at the same time"), "\(across.stderr)")
        let itself = try await device.run("trip", "move", breakfast, "--after", breakfast)
        #expect(itself.exitCode == 64)
        #expect(itself.stderr.contains("next to itself"), "\(itself.stderr)")
        #expect(try await device.trip(trip).items.map(\.title) == ["Breakfast", "Dinner"])
    }

    /// A `$TZ` this machine does not know made the viewer's times UTC without a word.
    @Test func theViewersZoneSaysWhenTZIsUnknown() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, _) = try await device.lisbonWithLunch()
        let unknown = try await device.run(
            "trip", "show", trip, "--zone", "viewer", environment: ["TZ": "Mars/Olympus"])
        #expect(unknown.exitCode == 0)
        #expect(unknown.stderr.contains("$TZ ('Mars/Olympus') is not one this machine knows"), "\(unknown.stderr)")
        let known = try await device.run("trip", "show", trip, "--zone", "viewer", environment: ["TZ": "Asia/Tokyo"])
        #expect(known.stderr.isEmpty, "\(known.stderr)")
        #expect(known.stdout.contains("Asia/Tokyo"))
    }

    @Test func rmItemHidesTheItemAndRestoreBringsItBack() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        try await device.ok("trip", "rm-item", lunch)
        #expect(try await device.trip(trip).items.isEmpty)
        #expect(try await device.ok("trip", "show", trip).contains("No plans yet. Add one with: quire trip add"))
        #expect(try await device.run("trip", "edit", lunch, "--title", "X").exitCode == 65)
        try await device.ok("trip", "restore", lunch)
        #expect(try await device.trip(trip).items.map(\.title) == ["Lunch"])
        try await device.ok("trip", "rm", trip)
        #expect(try await device.ok("trip", "ls").hasPrefix("No trips yet."))
        #expect(try await device.run("trip", "show", trip).exitCode == 65)
    }

    @Test func aZoneThisDeviceDoesNotKnowIsKeptWithAWarning() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let trip = try await device.ok("trip", "new", "Mars")
        let result = try await device.run(
            "trip", "add", trip, "--title", "Landing", "--at", "2027-06-11 10:00", "--zone", "Mars/Olympus_Mons")
        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("warning: this device does not know the zone 'Mars/Olympus_Mons'"))
        let show = try await device.ok("trip", "show", trip)
        #expect(show.contains("  10:00 Mars/Olympus_Mons  Landing"))
        #expect(show.contains("this device does not know the zone Mars/Olympus_Mons: shown as typed"))
        #expect(try await device.trip(trip).items.first?.start?.resolution == "unknownZone")
    }

    @Test func exportWritesICalendarToStandardOutputOrToAFile() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, _) = try await device.lisbonWithLunch()
        let calendar = try await device.ok("trip", "export", trip, "--ics")
        #expect(calendar.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(calendar.contains("DTSTART;TZID=Europe/Lisbon:20270610T120000\r\n"))
        #expect(calendar.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Lisbon\r\n"))
        let file = root.path("lisbon.ics")
        #expect(try await device.ok("trip", "export", trip, "--ics", file.path).isEmpty)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains("SUMMARY:Lunch\r\n"))
    }

    @Test func statusCountsTheWaitingTripChangesInTextAndJSON() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.lisbonWithLunch()
        #expect(
            try await device.ok("status").contains("Pending:      7 change(s) not yet synced (7 of them trip fields)"))
        let json = try await device.ok("status", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["pendingCount"] as? Int == 7)
        #expect(object["tripPendingCount"] as? Int == 7)
        #expect(object["tripConflictCount"] as? Int == 0)
        #expect(object["tripRejectedCount"] as? Int == 0)
    }

    typealias BadInput = CLICommandTests.BadInput

    // TRIP and ITEM stand for the ids of the fixture's trip and item.
    @Test(arguments: [
        BadInput(arguments: ["trip"], exitCode: 64, message: "'trip' needs a command"),
        BadInput(arguments: ["trip", "plan"], exitCode: 64, message: "unknown trip command 'plan'"),
        BadInput(arguments: ["trip", "new"], exitCode: 64, message: "'trip new' needs a TITLE"),
        BadInput(arguments: ["trip", "new", "   "], exitCode: 64, message: "'trip new' needs a TITLE"),
        BadInput(arguments: ["trip", "add", "TRIP", "--title", "  "], exitCode: 64, message: "or only spaces"),
        BadInput(
            arguments: [
                "trip", "add", "TRIP", "--title", "T", "--at", "2027-06-10 18:00", "--zone", "Europe/Lisbon", "--end",
                "2027-06-09 07:00",
            ], exitCode: 64, message: "before it starts"),
        BadInput(
            arguments: ["trip", "new", "X", "--from", "2027-02-30"], exitCode: 64, message: "'2027-02-30' is not a date"
        ),
        BadInput(
            arguments: ["trip", "new", "X", "--from", "2027-06-12", "--to", "2027-06-09"], exitCode: 64,
            message: "is before --from"),
        BadInput(arguments: ["trip", "show", "0000"], exitCode: 65, message: "no trip with id '0000'"),
        BadInput(arguments: ["trip", "show", "TRIP", "--zone", "utc"], exitCode: 64, message: "--zone takes item"),
        BadInput(arguments: ["trip", "add", "TRIP"], exitCode: 64, message: "'trip add' needs --title"),
        BadInput(
            arguments: ["trip", "add", "TRIP", "--title", "T", "--at", "2027-06-10 12:00"], exitCode: 64,
            message: "--at needs --zone ZONE"),
        BadInput(
            arguments: ["trip", "add", "TRIP", "--title", "T", "--at", "2027-06-31 12:00", "--zone", "Europe/Lisbon"],
            exitCode: 64, message: "'2027-06-31 12:00' is not a date and time"),
        BadInput(
            arguments: ["trip", "add", "TRIP", "--title", "T", "--at", "2027-06-10 25:00", "--zone", "Europe/Lisbon"],
            exitCode: 64, message: "is not a date and time"),
        BadInput(
            arguments: ["trip", "add", "TRIP", "--title", "T", "--kind", "picnic"], exitCode: 64,
            message: "--kind takes flight"),
        BadInput(
            arguments: ["trip", "add", "TRIP", "--title", "T", "--zone", "Europe/Lisbon"], exitCode: 64,
            message: "--zone needs --at"),
        BadInput(arguments: ["trip", "add", "TRIP", "--title", ""], exitCode: 64, message: "needs a title"),
        BadInput(arguments: ["trip", "edit", "ITEM"], exitCode: 64, message: "at least one field"),
        BadInput(arguments: ["trip", "edit", "ffff0000", "--title", "T"], exitCode: 65, message: "no item with id"),
        BadInput(arguments: ["trip", "move", "ITEM"], exitCode: 64, message: "needs one of --after ITEM"),
        BadInput(arguments: ["trip", "move", "ITEM", "--first", "--last"], exitCode: 64, message: "not several"),
        BadInput(
            arguments: ["trip", "resolve", "ITEM", "--field", "start"], exitCode: 64, message: "--keep mine|theirs"),
        BadInput(
            arguments: ["trip", "resolve", "ITEM", "--field", "start", "--keep", "both"], exitCode: 64,
            message: "--keep takes mine or theirs"),
        BadInput(
            arguments: ["trip", "resolve", "ITEM", "--field", "time", "--keep", "mine"], exitCode: 64,
            message: "--field takes one of"),
        BadInput(
            arguments: ["trip", "resolve", "ITEM", "--field", "start", "--keep", "mine"], exitCode: 65,
            message: "no conflict on start"),
        BadInput(arguments: ["trip", "restore", "ITEM"], exitCode: 65, message: "is not deleted"),
        BadInput(arguments: ["trip", "export", "TRIP"], exitCode: 64, message: "needs --ics"),
        BadInput(arguments: ["trip", "ls", "--all"], exitCode: 64, message: "unknown option '--all'"),
    ])
    func badInputGetsOneClearLineAndExit64Or65(_ case: BadInput) async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (trip, lunch) = try await device.lisbonWithLunch()
        let before = try await device.ok("trip", "show", trip, "--json")
        let arguments = `case`.arguments.map { $0 == "TRIP" ? trip : $0 == "ITEM" ? lunch : $0 }
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", device.directory.path] + arguments)
        #expect(result.exitCode == `case`.exitCode)
        #expect(result.stderr.contains(`case`.message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // Nothing changed.
        #expect(try await device.ok("trip", "show", trip, "--json") == before)
    }

    @Test(arguments: [
        "new", "ls", "show", "rm", "add", "edit", "move", "rm-item", "conflicts", "resolve", "restore", "export",
    ])
    func everyTripCommandHasHelp(_ command: String) async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let result = try await CLIDevice(root, "d").run("trip", command, "--help")
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("Usage: quire trip \(command)"))
    }

    @Test func tripHelpListsEveryCommand() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let result = try await CLIDevice(root, "d").run("trip", "--help")
        #expect(result.exitCode == 0)
        for command in ["new TITLE", "ls [--json]", "show TRIP", "add TRIP", "move ITEM", "export TRIP --ics"] {
            #expect(result.stdout.contains(command))
        }
        #expect(try await CLIDevice(root, "d").ok("--help").contains("trip  "))
        #expect(try await CLIDevice(root, "d").ok("help", "trip").contains("new TITLE [--from DATE]"))
    }
}
