/// The help of `quire trip` and of each of its commands (`quire trip NAME --help`).
enum TripHelp {
    static let overview = "Usage: quire trip <command> [options]\n\n" + subcommands

    /// The subcommands and item options, as `quire trip --help` and `quire help trip` show them.
    static let subcommands = """
        Travel plans (work with no network; 'quire sync' syncs them with the notes):
          new TITLE [--from DATE] [--to DATE]   create a trip; prints its id (DATE: YYYY-MM-DD)
          ls [--json]                           list trips; unsynced ones and conflicts are marked
          show TRIP [--json] [--zone item|viewer]  the trip's days and items in order
          rm TRIP                               delete a trip (quire trip restore TRIP brings it back)
          add TRIP --title T [item options]     add an item; prints its id
          edit ITEM [item options]              change an item's fields
          edit TRIP [--title T] [--from DATE] [--to DATE] [--notes N]   rename a trip, change its dates
          move ITEM --after ITEM|--before ITEM|--first|--last   reorder within a day
          rm-item ITEM                          delete an item
          conflicts [--json]                    fields waiting for your choice
          resolve ITEM|TRIP --field F --keep mine|theirs   settle one (or let a refused change go)
          restore ITEM|TRIP                     bring back a deleted item or trip (with your edits)
          export TRIP --ics [FILE]              iCalendar (stdout when no FILE)

        Photos (end-to-end encrypted; uploads resume where they stopped):
          photo add ITEM FILE [--keep-location] queue a photo; 'quire sync' or 'quire watch' uploads it
          photos ITEM [--json]                  the item's photos and how each upload stands
          photo get PHOTO --out FILE [--thumbnail]   download, decrypt and check one
          photo rm PHOTO                        remove a photo (everywhere after the next sync)

        Sharing (online; the trip's values stay end-to-end encrypted):
          share TRIP --with USER [--role editor|viewer]   invite someone (default: editor)
          invites [--json]                      invitations waiting for you
          accept INVITE | decline INVITE        join a trip (it syncs here at once), or not
          members TRIP [--json]                 who is in the trip, their roles and key fingerprints
          role TRIP USER --role owner|editor|viewer   change a member's role (owners only)
          remove TRIP USER                      remove a member (owners only)
          leave TRIP [--force]                  leave a trip and delete it here
          invite TRIP [--role R] [--expires-in HOURS] [--uses N]   an invite link (owners only)
          invite TRIP --revoke LINK             stop a link from working
          join LINK                             join a trip with an invite link

        Item options:
          --title T  --kind flight|stay|meal|activity|transport|other
          --at 'YYYY-MM-DD HH:MM' --zone ZONE   start, as the local time of the place and its IANA
                                                zone (e.g. Europe/Lisbon); never the device's zone
          --end 'YYYY-MM-DD HH:MM' [--end-zone ZONE]   end (its zone defaults to the start's)
          --location L  --notes N               (an empty value clears a field)
          --after ITEM | --before ITEM          where a new item goes in its day (default: last)

        TRIP and ITEM may be shortened to 4 or more characters: the start of what lists show (their
        last 8), or any unique start or end of the whole id.
        Run 'quire trip COMMAND --help' for one command.
        """

    static let commands: [String: String] = [
        "new": """
        Usage: quire trip new TITLE [--from YYYY-MM-DD] [--to YYYY-MM-DD]
        Creates a trip on this device and prints its id. It reaches the server at the next sync.
        """,
        "ls": """
        Usage: quire trip ls [--json]
        Lists the trips: id, title, dates, number of items, and [not synced] or [N conflict(s)].
        """,
        "show": """
        Usage: quire trip show TRIP [--json] [--zone item|viewer]
        Prints the trip's days and their items in order, each with its local time and zone.
        --zone item (default): each time in the item's own zone; --zone viewer: in this
        device's zone ($TZ). Badges mark unsynced and conflicting fields.
        """,
        "rm": """
        Usage: quire trip rm TRIP
        Deletes the trip (on every device after the next sync).
        """,
        "add": """
        Usage: quire trip add TRIP --title T [--kind K] [--at 'YYYY-MM-DD HH:MM' --zone ZONE]
               [--end 'YYYY-MM-DD HH:MM' [--end-zone ZONE]] [--location L] [--notes N]
               [--after ITEM|--before ITEM]
        Adds an item and prints its id. K: flight, stay, meal, activity, transport, other.
        ZONE is the IANA zone of the place (Europe/Lisbon); an id this device does not know is
        kept with a warning. --after/--before place it within its day (default: last).
        """,
        "edit": """
        Usage: quire trip edit ITEM [--title T] [--kind K] [--at 'YYYY-MM-DD HH:MM'] [--zone ZONE]
               [--end 'YYYY-MM-DD HH:MM'] [--end-zone ZONE] [--location L] [--notes N]
               [--after ITEM|--before ITEM]
               quire trip edit TRIP [--title T] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--notes N]
        Changes the fields given; an empty value clears one (--at '' unschedules the item).
        --zone alone keeps the local time and changes its zone. Given a trip, renames it or
        changes its dates or notes.
        """,
        "move": """
        Usage: quire trip move ITEM --after ITEM|--before ITEM|--first|--last
        Moves the item within its day (or among the unscheduled items). To move it to another
        day, change its time: quire trip edit ITEM --at 'YYYY-MM-DD HH:MM'.
        """,
        "rm-item": """
        Usage: quire trip rm-item ITEM
        Deletes the item.
        """,
        "conflicts": """
        Usage: quire trip conflicts [--json]
        Lists the fields where this device's change met another device's, and the items deleted
        elsewhere while this device edited them.
        """,
        "resolve": """
        Usage: quire trip resolve ITEM|TRIP --field F --keep mine|theirs
        Settles a conflict: mine sends this device's value again, theirs keeps the other one.
        For an item deleted elsewhere (--field deleted), mine restores it with your edits; for a
        trip deleted elsewhere while you changed it, mine restores it (owners only) with your
        changes and theirs lets them go. For a change the server refused (shown [refused] with
        its reason), theirs lets it go and shows the trip's value again; mine sends it again.
        """,
        "restore": """
        Usage: quire trip restore ITEM|TRIP
        Brings back an item that was deleted (for one deleted elsewhere while you edited it,
        with your edits), or a trip deleted on another device while you changed it, with your
        changes (owners only; an editor asks an owner, and the changes go out once it is back).
        """,
        "photo": """
        Usage: quire trip photo add ITEM FILE [--keep-location]
               quire trip photo get PHOTO --out FILE [--thumbnail]
               quire trip photo rm PHOTO
        add: seals FILE under a key of its own into the data directory and queues it; it returns
        at once and prints the photo's id. 'quire sync' (or 'quire watch') uploads it, resuming
        from where the server stopped after a kill or a lost connection, and only once the
        upload is complete does the item show the photo to the people the trip is shared with
        ('quire status' shows what is left). The server stores ciphertext and sees its size,
        never the pixels or the place. Location metadata (EXIF GPS) is removed first, by
        quire-photo, which checks it is gone; --keep-location sends the file exactly as it is.
        get: downloads the photo (resuming what is already on disk), decrypts it and checks it
        against the SHA-256 its attach carries, then writes FILE; a damaged, cut or reordered
        download is refused and never written. Kept in a cache of 512 MiB
        ($QUIRE_PHOTO_CACHE_MIB), least recently used out. A progress line on a terminal.
        rm: removes the photo (a queued one leaves the queue at once).
        PHOTO may be any unique prefix of 4 or more characters of its id ('quire trip photos ITEM').
        $QUIRE_PHOTO_PIECE_KIB sets the bytes of each upload or download request (4096 KiB).
        """,
        "photos": """
        Usage: quire trip photos ITEM [--json]
        Lists the item's photos: id, state (queued, uploading, attaching, shared, failed,
        removing), type, size and, for this device's uploads, how much the server has. A failed
        photo says why (a viewer cannot add photos; the server's quota); it stays until removed.
        """,
        "share": """
        Usage: quire trip share TRIP --with USER [--role editor|viewer] [--trust-new-key]
        Invites USER (default role: editor). The trip's key is sealed to their public key, so
        the server never holds it. Prints their key's fingerprint: compare it with them. A key
        that changed since this device first saw it is refused until you pass --trust-new-key.
        """,
        "invites": """
        Usage: quire trip invites [--json]
        Lists the invitations waiting for you, with each inviter's key fingerprint.
        """,
        "accept": """
        Usage: quire trip accept INVITE
        Joins the trip of invitation INVITE (any unique prefix of its id) and syncs it here.
        """,
        "decline": """
        Usage: quire trip decline INVITE
        Declines the invitation.
        """,
        "members": """
        Usage: quire trip members TRIP [--json]
        Lists the trip's members, their roles and key fingerprints. A key that changed since
        this device first saw it is marked WARNING: compare it with them.
        """,
        "role": """
        Usage: quire trip role TRIP USER --role owner|editor|viewer
        Changes a member's role (owners only). A trip always keeps at least one owner.
        """,
        "remove": """
        Usage: quire trip remove TRIP USER [--trust-new-key]
        Removes a member (owners only) and rotates the trip's key in the same request: a new
        key, sealed to each remaining member's and invitee's public key (checked as for
        share), so nothing written from now on opens with the keys they had. Open invite
        links are revoked. Their next sync is refused and deletes the trip on their devices,
        after warning about any changes of theirs that never synced.
        Example: quire trip remove lisbon bob
        """,
        "leave": """
        Usage: quire trip leave TRIP [--force]
        Leaves the trip and deletes it on this device. Refused while changes of yours are
        unsynced, unless --force. An owner's next sync rotates the trip's key.
        """,
        "invite": """
        Usage: quire trip invite TRIP [--role editor|viewer] [--expires-in HOURS] [--uses N]
               quire trip invite TRIP --revoke LINK
        Prints an invite link for someone without an account yet, or whose username you do not
        know (default: viewer, 1 use, 168 hours; at most 720 hours and 100 uses). The secret
        after '#' never reaches the server: anyone with the whole link can join, so send it
        privately. --revoke stops a link from working.
        """,
        "join": """
        Usage: quire trip join LINK
        Joins the trip of an invite link (sign in first) and syncs it here.
        """,
        "export": """
        Usage: quire trip export TRIP --ics [FILE]
        Writes the trip's timed items as iCalendar (RFC 5545), each event in its own zone with
        its VTIMEZONE; to FILE, or to stdout.
        """,
    ]
}
