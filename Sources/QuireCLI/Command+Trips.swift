// MARK: - Travel plans

extension Command {
    /// `quire trip SUBCOMMAND ...`: dispatched before the table's option parsing, since each
    /// subcommand has its own options (see `TripHelp`); this entry gives it its place in
    /// `quire help`, "did you mean" and the README.
    static let trips: [Command] = [
        Command(
            name: "trip", group: .trips,
            summary: "travel plans: trips and their itineraries, synced like notes",
            usage:
                "trip new|ls|show|rm|add|edit|move|rm-item|conflicts|resolve|restore|export|photo|photos"
                + "|share|invites|accept|decline|members|role|remove|leave|invite|join ...",
            examples: [
                "quire trip new \"Lisbon\" --from 2027-06-09",
                "quire trip add TRIP --title \"Lunch\" --at '2027-06-10 12:30' --zone Europe/Lisbon",
                "quire trip show TRIP --zone viewer",
                "quire trip export TRIP --ics lisbon.ics",
                "quire trip share TRIP --with ada --role viewer",
                "quire trip photo add ITEM beach.jpg --keep-location",
            ],
            details: TripHelp.subcommands + "\n\n" + """
                Each field of a trip or an item syncs on its own, so two people editing different
                fields both keep their edits; the same field changed on two devices is a conflict
                shown by `quire trip conflicts` ("Keep mine?").
                """,
            run: { try await $0.trip($1.positionals) })
    ]
}
