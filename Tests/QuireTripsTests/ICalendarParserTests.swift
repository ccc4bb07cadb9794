import Foundation
import QuireTrips
import Testing

/// The export read back by an independent parser: Python's `icalendar` (PyPI), in the venv
/// that `scripts/setup.sh` makes. The test fails, never skips, when the venv is missing.
@Suite struct ICalendarParserTests {
    static let trips: [(name: String, items: [CalendarItem])] = [
        (
            "a 2027 trip across zones, a gap and an overlap",
            [
                CalendarItem(
                    id: "flight", title: "TP 1351 to New York", location: "LIS Terminal 1",
                    notes: "Seat 23A; bags: one, checked.\nGate closes 09:20",
                    start: time("2027-06-10T10:00 Europe/Lisbon"),
                    end: time("2027-06-10T13:00 America/New_York")),
                CalendarItem(id: "gap", title: "Early train", start: time("2027-03-14T02:30 America/New_York")),
                CalendarItem(
                    id: "overlap", title: "Night walk", start: time("2027-11-07T01:30 America/New_York"),
                    end: time("2027-11-07T03:00 America/New_York")),
                CalendarItem(
                    id: "sushi", title: "Sushi, late", location: "Tsukiji", start: time("2027-06-10T23:30 Asia/Tokyo")),
                CalendarItem(id: "mars", title: "Base camp", start: time("2027-06-11T09:00 Mars/Olympus")),
                CalendarItem(
                    id: "lisbon-autumn", title: "Fado", notes: String(repeating: "Saudade — ", count: 30),
                    start: time("2027-10-31T01:30 Europe/Lisbon")),
                CalendarItem(id: "someday", title: "Untimed", start: nil),
            ]
        ),
        (
            "Samoa's skipped day",
            [
                CalendarItem(id: "before", title: "Last day east", start: time("2011-12-29T10:00 Pacific/Apia")),
                CalendarItem(id: "skipped", title: "Never happened", start: time("2011-12-30T10:00 Pacific/Apia")),
            ]
        ),
    ]

    @Test(arguments: trips.indices)
    func anIndependentParserReadsEveryEventsLocalTimeAndZone(trip: Int) async throws {
        let (name, items) = Self.trips[trip]
        let ics = ICalendarWriter().calendar(title: name, items: items, stamp: utc("2027-01-02T03:04"))
        let result = try await CheckerPython.run(
            script: Self.checker,
            files: [("trip.ics", Data(ics.utf8)), ("expected.json", try JSONEncoder().encode(Expectations(items)))])

        #expect(result.status == 0, "\(name): \(result.output)\n\(ics)")
        #expect(result.output.contains("ok \(items.filter { $0.start != nil }.count) events"), "\(result.output)")
    }

    // MARK: - What the parser must find

    struct Expectations: Encodable {
        struct Time: Encodable {
            var local: String
            var tzid: String?
            var xzone: String?
            /// Seconds since 1970 by this device's zone rules; nil for an unknown zone.
            var utc: Int?
            /// The wall clock the instant shows in the item's zone (differs from `local` in a gap).
            var shown: String
        }

        struct Event: Encodable {
            var uid: String
            var summary: String?
            var location: String?
            var description: String?
            var start: Time
            var end: Time?
            var duration: Int?
        }

        var events: [Event]

        init(_ items: [CalendarItem]) {
            events = items.compactMap { item in
                guard let start = item.start else { return nil }
                let end = item.end.flatMap { end in
                    (end.instant ?? .distantPast) > (start.instant ?? .distantFuture) ? end : nil
                }
                return Event(
                    uid: item.id + "@quire", summary: item.title.isEmpty ? nil : item.title,
                    location: item.location.isEmpty ? nil : item.location,
                    description: item.notes.isEmpty ? nil : item.notes, start: Self.time(start),
                    end: end.map(Self.time),
                    duration: end == nil ? 3_600 : nil)
            }
        }

        static func time(_ time: ItineraryTime) -> Time {
            let known = TimeZone(identifier: time.zoneID) != nil
            return Time(
                local: time.local.description, tzid: known ? time.zoneID : nil, xzone: known ? nil : time.zoneID,
                utc: time.instant.map { Int($0.timeIntervalSince1970) }, shown: time.displayed(.item).local.description)
        }
    }

    /// Reads the file as bytes (CRLF, 75 octets, UTF-8 per physical line), then with icalendar:
    /// each event's text, its local start and end with their TZID (or X-QUIRE-TZID when
    /// floating), the instant icalendar and zoneinfo give, and the wall clock that the file's own
    /// VTIMEZONE, as icalendar reads its transitions, shows for the instant this device computed.
    static let checker = #"""
        import datetime, json, sys, zoneinfo
        import icalendar

        raw = open(sys.argv[1], "rb").read()
        want = json.load(open(sys.argv[2]))
        errors = []

        lines = raw.split(b"\r\n")
        if lines[-1] != b"":
            errors.append("the file does not end in CRLF")
        for number, line in enumerate(lines[:-1], 1):
            if b"\r" in line or b"\n" in line:
                errors.append(f"line {number}: a bare CR or LF")
            if len(line) > 75:
                errors.append(f"line {number}: {len(line)} octets")
            try:
                line.decode("utf-8")
            except UnicodeDecodeError:
                errors.append(f"line {number}: a fold split a UTF-8 character")

        calendar = icalendar.Calendar.from_ical(raw)
        # Each VTIMEZONE as icalendar reads it: its transitions in UTC and the offset after each.
        # (Not to_tz(): its dateutil zone cannot hold Samoa's 25-hour "daylight saving".)
        zones = {str(tz["TZID"]): tz.get_transitions() for tz in calendar.walk("VTIMEZONE")}

        def offset_at(transitions, instant):
            times, infos = transitions
            chosen = None
            for when, info in zip(times, infos):
                if when <= instant:
                    chosen = info[0]
            return chosen
        events = {str(event["UID"]): event for event in calendar.walk("VEVENT")}
        if len(events) != len(want["events"]):
            errors.append(f"{len(events)} events, expected {len(want['events'])}")

        def local(text):
            return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M")

        def check_time(uid, name, prop, expected):
            if prop is None:
                errors.append(f"{uid}: no {name}")
                return
            value = prop.dt
            tzid = prop.params.get("TZID")
            xzone = prop.params.get("X-QUIRE-TZID")
            if tzid != expected.get("tzid") or xzone != expected.get("xzone"):
                errors.append(f"{uid} {name}: TZID {tzid!r} X-QUIRE-TZID {xzone!r}, expected {expected.get('tzid')!r} {expected.get('xzone')!r}")
            if value.replace(tzinfo=None) != local(expected["local"]):
                errors.append(f"{uid} {name}: local {value}, expected {expected['local']}")
            if expected.get("tzid") is None:
                if value.tzinfo is not None:
                    errors.append(f"{uid} {name}: not floating")
                return
            if value.tzinfo is None:
                errors.append(f"{uid} {name}: no zone")
                return
            if int(value.timestamp()) != expected.get("utc"):
                errors.append(f"{uid} {name}: icalendar reads {value.timestamp()}, expected {expected.get('utc')}")
            by_zoneinfo = local(expected["local"]).replace(tzinfo=zoneinfo.ZoneInfo(expected.get("tzid")))
            if int(by_zoneinfo.timestamp()) != expected.get("utc"):
                errors.append(f"{uid} {name}: zoneinfo reads {by_zoneinfo.timestamp()}, expected {expected.get('utc')}")
            own = zones.get(expected.get("tzid"))
            if own is None:
                errors.append(f"{uid} {name}: no VTIMEZONE for {expected.get('tzid')}")
                return
            instant = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=expected.get("utc"))
            offset = offset_at(own, instant)
            if offset is None:
                errors.append(f"{uid} {name}: the VTIMEZONE of {expected.get('tzid')} starts after {instant} UTC")
                return
            shown = instant + offset
            if shown != local(expected["shown"]):
                errors.append(f"{uid} {name}: the file's VTIMEZONE shows {shown}, expected {expected['shown']}")

        for expected in want["events"]:
            uid = expected["uid"]
            event = events.get(uid)
            if event is None:
                errors.append(f"no event {uid}")
                continue
            for key, prop in (("summary", "SUMMARY"), ("location", "LOCATION"), ("description", "DESCRIPTION")):
                got = str(event[prop]) if prop in event else None
                if got != expected.get(key):
                    errors.append(f"{uid} {prop}: {got!r}, expected {expected.get(key)!r}")
            check_time(uid, "DTSTART", event.get("DTSTART"), expected["start"])
            if expected.get("end") is not None:
                check_time(uid, "DTEND", event.get("DTEND"), expected.get("end"))
            else:
                if "DTEND" in event:
                    errors.append(f"{uid}: a DTEND, expected a DURATION")
                if "DURATION" not in event or event["DURATION"].dt != datetime.timedelta(seconds=expected["duration"]):
                    errors.append(f"{uid}: DURATION {event.get('DURATION')!r}, expected {expected['duration']} s")

        if errors:
            print("\n".join(errors))
            sys.exit(1)
        print(f"ok {len(events)} events, icalendar {icalendar.__version__}")
        """#
}
