import Foundation
import QuireTestSupport
import Testing

/// Travel plans on two `quire` devices of one account, syncing through a real `quire-server`
/// process on loopback (seed 002's cases).
@Suite struct TripsThroughARealServerTests {
    /// Two signed-in devices (``TwoCLIDevices``) that both hold
    /// "Lisbon" with its "Lunch" at 12:00.
    struct Setup {
        let devicesSetup: TwoCLIDevices
        let trip: String
        let lunch: String

        init() async throws {
            devicesSetup = try await TwoCLIDevices()
            (trip, lunch) = try await devicesSetup.phone.lisbonWithLunch()
            try await devicesSetup.phone.ok("sync")
            try await devicesSetup.laptop.ok("sync")
        }

        var root: TemporaryDirectory { devicesSetup.root }
        var phone: CLIDevice { devicesSetup.phone }
        var laptop: CLIDevice { devicesSetup.laptop }
        var devices: [CLIDevice] { [phone, laptop] }

        func tearDown() { devicesSetup.tearDown() }
    }

    @Test func aTripMadeOnOneDeviceReachesTheOtherAndSyncSaysWhatTheTripsDid() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        let shown = try await setup.laptop.trip(setup.trip)
        #expect(shown.title == "Lisbon")
        #expect(shown.state == "synced")
        #expect(shown.items.map(\.title) == ["Lunch"])
        #expect(shown.item(setup.lunch)?.fields["title"]?.revision ?? 0 > 0)
        try await setup.phone.ok("trip", "edit", setup.lunch, "--title", "Lunch at Time Out Market")
        #expect(
            try await setup.phone.ok("sync") == "Synced: sent 0, received 0; trips: sent 1 field change(s), received 0")
        #expect(try await setup.laptop.ok("sync").contains("; trips: sent 0 field change(s), received 1"))
        // A new trip is news to the other device only: its maker does not count its own fields back.
        let porto = try await setup.phone.ok("trip", "new", "Porto")
        try await setup.phone.ok("trip", "add", porto, "--title", "Tram 28")
        #expect(
            try await setup.phone.ok("sync") == "Synced: sent 0, received 0; trips: sent 3 field change(s), received 0")
        #expect(
            try await setup.laptop.ok("sync") == "Synced: sent 0, received 0; trips: sent 0 field change(s), received 3"
        )
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await setup.laptop.ok("sync", "--json").utf8))
                as? [String: Any])
        #expect((json["trips"] as? [String: Any])?["received"] as? Int == 0)
        #expect(json["notes"] is [String: Any])
        #expect(json["pushed"] as? Int == 0)
    }

    @Test func aRenameOnOneDeviceAndATimeAndNoteOnTheOtherBothSurviveOnBoth() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        // Both offline: the phone renames, the laptop changes the time and adds a note.
        try await setup.phone.ok("trip", "edit", setup.lunch, "--title", "Lunch at Time Out Market")
        try await setup.laptop.ok("trip", "edit", setup.lunch, "--at", "2027-06-10 12:30", "--notes", "book ahead")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in setup.devices {
            let lunch = try #require(try await device.trip(setup.trip).item(setup.lunch))
            #expect(lunch.title == "Lunch at Time Out Market")
            #expect(lunch.start?.local == "2027-06-10T12:30")
            #expect(lunch.start?.zone == "Europe/Lisbon")
            #expect(lunch.notes == "book ahead")
            #expect(lunch.state == "synced")
            #expect(try await device.tripConflicts().isEmpty)
        }
    }

    @Test(arguments: ["mine", "theirs"])
    func bothChangingTheTimeIsOneConflictShownAndResolvedEitherWay(_ keep: String) async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.phone.ok("trip", "edit", setup.lunch, "--at", "2027-06-10 12:30")
        try await setup.laptop.ok("trip", "edit", setup.lunch, "--at", "2027-06-10 13:00")
        try await setup.phone.ok("sync")
        #expect(try await setup.laptop.ok("sync").contains("1 conflict(s) to settle (quire trip conflicts)"))

        let conflicts = try await setup.laptop.tripConflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.field == "start")
        #expect(conflicts.first?.mine == "2027-06-10T13:00 Europe/Lisbon")
        #expect(conflicts.first?.theirs == "2027-06-10T12:30 Europe/Lisbon")
        let show = try await setup.laptop.ok("trip", "show", setup.trip)
        #expect(show.contains("[conflict]"))
        #expect(show.contains("! start: Another device changed this to 12:30. Keep mine? Yours: 13:00."))
        #expect(show.contains("quire trip resolve \(setup.lunch.suffix(8)) --field start --keep mine|theirs"))
        #expect(try await setup.laptop.ok("status").contains("Trip conflicts: 1 field(s) wait for your choice"))
        #expect(try await setup.phone.tripConflicts().isEmpty)

        try await setup.laptop.ok("trip", "resolve", String(setup.lunch.suffix(8)), "--field", "start", "--keep", keep)
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        let expected = keep == "mine" ? "2027-06-10T13:00" : "2027-06-10T12:30"
        for device in setup.devices {
            let lunch = try #require(try await device.trip(setup.trip).item(setup.lunch))
            #expect(lunch.start?.local == expected)
            #expect(lunch.state == "synced")
            #expect(try await device.tripConflicts().isEmpty)
        }
    }

    @Test func changesToATripDeletedElsewhereAreOfferedBackAndRestoredByShortID() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        // The laptop adds an item and a note offline; the phone deletes the whole trip first.
        let dinner = try await setup.laptop.ok("trip", "add", setup.trip, "--title", "Dinner")
        try await setup.laptop.ok("trip", "edit", setup.lunch, "--notes", "bring cash")
        #expect(try await setup.phone.ok("trip", "rm", setup.trip).contains("undo: quire trip restore"))
        try await setup.phone.ok("sync")

        // The laptop's sync ends well (exit 0, nothing "refused"), and says one choice waits.
        let synced = try await setup.laptop.ok("sync")
        #expect(synced.contains("1 conflict(s) to settle"), "\(synced)")
        #expect(try await setup.laptop.ok("sync") == "Synced: sent 0, received 0")
        let offer = try await setup.laptop.ok("trip", "conflicts")
        #expect(offer.contains("Lisbon"), "\(offer)")
        #expect(offer.contains("deleted on another device while you changed it"), "\(offer)")
        #expect(offer.contains("3 change(s) not sent"), "Dinner's title and order, Lunch's note: \(offer)")

        try await setup.laptop.ok("trip", "restore", String(setup.trip.suffix(8)))
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in setup.devices {
            let trip = try await device.trip(setup.trip)
            #expect(trip.items.map(\.title).sorted() == ["Dinner", "Lunch"])
            #expect(trip.item(setup.lunch)?.notes == "bring cash")
            #expect(trip.item(dinner)?.state == "synced")
            #expect(try await device.tripConflicts().isEmpty)
        }
    }

    @Test func aDeleteWinsOverAnEditAndRestoreBringsTheItemBackWithTheEditsOnBoth() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.phone.ok("trip", "rm-item", setup.lunch)
        try await setup.laptop.ok("trip", "edit", setup.lunch, "--notes", "book ahead", "--title", "Long lunch")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")

        // The delete won: the item is gone from the laptop's days, kept to restore.
        let laptopTrip = try await setup.laptop.trip(setup.trip)
        #expect(laptopTrip.items.isEmpty)
        #expect(laptopTrip.deletedWhileEdited.map(\.id) == [setup.lunch])
        let conflicts = try await setup.laptop.tripConflicts()
        #expect(conflicts.map(\.deletedWhileEdited) == [true])
        #expect(try await setup.laptop.ok("trip", "show", setup.trip).contains("! This item was deleted. Restore it?"))

        try await setup.laptop.ok("trip", "restore", String(setup.lunch.suffix(6)))
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in setup.devices {
            let trip = try await device.trip(setup.trip)
            let lunch = try #require(trip.item(setup.lunch))
            #expect(lunch.title == "Long lunch")
            #expect(lunch.notes == "book ahead")
            #expect(lunch.start?.local == "2027-06-10T12:00")
            #expect(lunch.state == "synced")
            #expect(trip.deletedWhileEdited.isEmpty)
            #expect(try await device.tripConflicts().isEmpty)
        }
    }

    @Test func insertsAtOneSpotOnBothDevicesGiveTheSameOrderOnBoth() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        let dinner = try await setup.phone.ok(
            "trip", "add", setup.trip, "--title", "Dinner", "--at", "2027-06-10 12:00", "--zone", "Europe/Lisbon")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        // Both insert between Lunch and Dinner (same time, so the keys order them) while offline.
        for (device, title) in [(setup.phone, "Phone coffee"), (setup.laptop, "Laptop coffee")] {
            try await device.ok(
                "trip", "add", setup.trip, "--title", title, "--at", "2027-06-10 12:00", "--zone", "Europe/Lisbon",
                "--after", setup.lunch)
        }
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        let phoneOrder = try await setup.phone.trip(setup.trip).items.map(\.title)
        let laptopOrder = try await setup.laptop.trip(setup.trip).items.map(\.title)
        #expect(phoneOrder == laptopOrder)
        #expect(phoneOrder.first == "Lunch")
        #expect(phoneOrder.last == "Dinner")
        #expect(Set(phoneOrder) == ["Lunch", "Phone coffee", "Laptop coffee", "Dinner"])
        #expect(try await setup.phone.trip(setup.trip).item(dinner)?.state == "synced")
    }

    @Test func theExportOfASyncedTripReadsBackInPythonsICalendarWithEachLocalTimeAndZone() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        try await setup.phone.ok(
            "trip", "add", setup.trip, "--title", "Flight to New York", "--at", "2027-06-12 10:00", "--zone",
            "Europe/Lisbon", "--end", "2027-06-12 13:00", "--end-zone", "America/New_York")
        try await setup.phone.ok(
            "trip", "add", setup.trip, "--title", "Show", "--at", "2027-06-12 20:00", "--zone", "America/New_York")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        let file = setup.root.path("lisbon.ics")
        try await setup.laptop.ok("trip", "export", setup.trip, "--ics", file.path)

        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/venv-ci/bin/python")
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "run `bash scripts/setup.sh` first: it creates .build/venv-ci with icalendar")
        let script = """
            import sys, icalendar
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for event in sorted(calendar.walk('VEVENT'), key=lambda e: str(e['SUMMARY'])):
                for name in ('DTSTART', 'DTEND'):
                    if name in event:
                        value = event[name]
                        print(event['SUMMARY'], name, value.dt.strftime('%Y-%m-%d %H:%M'), value.params.get('TZID'),
                              value.dt.utcoffset())
            """
        let result = try await ProcessRunner.run(python, ["-c", script, file.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.output.split(separator: "\n") == [
                "Flight to New York DTSTART 2027-06-12 10:00 Europe/Lisbon 1:00:00",
                "Flight to New York DTEND 2027-06-12 13:00 America/New_York -1 day, 20:00:00",
                "Lunch DTSTART 2027-06-10 12:00 Europe/Lisbon 1:00:00",
                "Show DTSTART 2027-06-12 20:00 America/New_York -1 day, 20:00:00",
            ])
    }

    @Test func watchSyncsTripsAndSaysWhichTripAnotherDeviceChanged() async throws {
        let setup = try await Setup()
        defer { setup.tearDown() }
        let watch = try BackgroundQuire.start(setup.laptop, "watch", "--json")
        defer { watch.stop() }
        try await setup.phone.ok("trip", "edit", setup.lunch, "--title", "Lunch at Time Out Market")
        try await setup.phone.ok("trip", "add", setup.trip, "--title", "Dinner")
        try await setup.phone.ok("sync")

        let reported = await eventually(timeout: 30) {
            watch.output.contains("\"event\":\"trip-updated\",\"id\":\"\(setup.trip)\",\"title\":\"Lisbon\"")
        }
        #expect(reported, "\(watch.output)")
        let lunch = try await setup.laptop.trip(setup.trip).item(setup.lunch)
        #expect(lunch?.title == "Lunch at Time Out Market")
    }
}
