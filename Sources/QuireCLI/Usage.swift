/// The help text `quire --help` prints and usage errors point to.
enum Usage {
    static let text = """
        quire: offline-first notes that sync.

        Usage: quire [--data-dir DIR] <command> [options]

        Notes (work with no network):
          new --title T [--body B|-]        create a note; prints its id (--body - reads stdin)
          edit ID [--title T] [--body B|-]  change a note; with neither flag, opens $EDITOR
          rm ID                              delete a note
          ls [--json]                        list notes; unsynced ones are marked
          show ID [--json]                   print one note

        Account (end-to-end encrypted; the password never leaves this device):
          register URL USER [--password-stdin]  create an account and sign this device in
          login URL USER [--password-stdin]     sign this device in to an account
          logout [--force]                   sign out and erase this device's notes (asks first when
                                             some haven't synced; --force: don't ask)
          passwd [--password-stdin]          change the password (stdin: current, then new, one per line)

        Sync:
          sync [--json]                      push local changes, then pull the others' changes
          watch [--json] [--verbose]         stay in sync until Ctrl-C; print the status label and
                                             each note that arrives from another device
          status [--json] [--verbose]        pending changes, last sync, last failure (--verbose:
                                             the sync metrics)

        Conflicts:
          conflicts [--json]                 notes with a conflict copy waiting
          diff ID                            both sides of a conflict, as a unified diff
          resolve ID --keep mine|theirs|both settle a conflict (ID: the copy or its original)

        Travel plans (work with no network; sync and watch sync them too):
          trip new TITLE [--from DATE] [--to DATE]   create a trip; prints its id
          trip ls | show TRIP | rm TRIP      list, print (days and items in order), delete
          trip add TRIP --title T [--at 'YYYY-MM-DD HH:MM' --zone ZONE] …   add an item
          trip edit | move | rm-item ITEM    change, reorder within its day, delete an item
          trip conflicts | resolve | restore   settle what met another device's change
          trip export TRIP --ics [FILE]      iCalendar, each event in its own zone
                                             (quire trip --help for every option)

        IDs may be shortened to any unique prefix of 4 or more characters.
        The device lives in --data-dir, or $QUIRE_HOME, or ~/.quire.
        Exit codes: 0 ok, 1 failed, 64 usage, 65 unknown note, 69 server unreachable,
        74 local storage error, 75 sync failed (try again), 77 signed out, 78 not signed in.
        """
}
