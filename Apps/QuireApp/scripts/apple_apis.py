#!/usr/bin/env python3
"""Lists every Apple-only API the app's sources use, with the minimum iOS and macOS Apple's
documentation gives, and fails when one is newer than the app's minimum (iOS 17, macOS 14) or
is not in the table at all.

What counts as "used": each capitalised name (a type, a constant such as kSecClass) and each
leading-dot member call on its own line (a SwiftUI modifier such as `.refreshable`) in the app's
Swift files, minus the names the app declares itself, the names the core package declares (its
Sources), and the Swift standard library's (below). Every name left must be in
apple-apis.tsv. Without an SDK this is a lexical check: it cannot see overloads, so the table
lists the minimum of the form the app calls.

Usage: scripts/apple_apis.py [--list]   (run from anywhere; --list prints the table of used APIs)
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
APP = os.path.dirname(HERE)
CORE_SOURCES = os.path.join(APP, "..", "..", "Sources")
TABLE = os.path.join(APP, "apple-apis.tsv")
MIN_IOS, MIN_MACOS = (17, 0), (14, 0)

# The Swift standard library, Foundation names shared with Linux, and Swift keywords or
# attributes that are capitalised: not Apple-only.
PORTABLE = set("""
Any AnyObject Array Bool Character Dictionary Double Duration Error Float Int Int64 Never Optional
Result Self Sendable Set String Substring Task UInt8 Void Data Date TimeInterval URL UUID Bundle
ProcessInfo FileManager JSONDecoder JSONEncoder Equatable Hashable Identifiable CaseIterable
CustomStringConvertible ObjectIdentifier MainActor Observable ObservationIgnored Bindable
DispatchQueue Clock ContinuousClock AsyncStream Array Swift Foundation Observation Dispatch
""".split())

def swift_files(root):
    for directory, _, files in os.walk(root):
        if "/.build" in directory:
            continue
        for name in files:
            if name.endswith(".swift") and name != "Package.swift":
                yield os.path.join(directory, name)

def strip_comments_and_strings(text):
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)

DECLARATION = re.compile(
    r"\b(?:struct|class|enum|protocol|actor|typealias|func|var|let|extension)\s+([A-Za-z_][A-Za-z0-9_]*)")

PUBLIC_TYPE = re.compile(
    r"(?m)^public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)")

def declared_names(root):
    """Every name the app declares, nested ones included."""
    names = set()
    for path in swift_files(root):
        with open(path, encoding="utf-8") as f:
            names.update(DECLARATION.findall(strip_comments_and_strings(f.read())))
    return names

def core_names(root):
    """The core's module names and its top-level public types: what the app can name from it
    unqualified (a nested public type such as SyncController.State is reached through its parent)."""
    names = set(os.listdir(root))
    for path in swift_files(root):
        with open(path, encoding="utf-8") as f:
            names.update(PUBLIC_TYPE.findall(strip_comments_and_strings(f.read())))
    return names

IOS_CONDITION = re.compile(r"os\(iOS\)|canImport\(UIKit\)")

def unguarded_lines(text):
    """The lines of `text` outside every `#if os(iOS)` / `#if canImport(UIKit)` branch (their
    `#else` branches count as outside)."""
    stack = []
    lines = []
    for line in text.split("\n"):
        directive = line.strip()
        if directive.startswith("#if "):
            stack.append(bool(IOS_CONDITION.search(directive)))
        elif directive.startswith("#elseif") and stack:
            stack[-1] = bool(IOS_CONDITION.search(directive))
        elif directive.startswith("#else") and stack:
            stack[-1] = False
        elif directive.startswith("#endif") and stack:
            stack.pop()
        lines.append("" if any(stack) else line)
    return "\n".join(lines)

def names_in(text):
    # A name after a dot is a member of the name before it (NoteRow.Badge), checked with it.
    names = set(re.findall(r"(?<![.\w])(k[A-Z][A-Za-z0-9]+|err[A-Z][A-Za-z]+|[A-Z][A-Za-z0-9]+)\b", text))
    names.update("." + name for name in re.findall(r"(?m)^\s*\.([a-z][A-Za-z0-9]*)\s*[({]", text))
    return names

def used_names(root):
    """Each name used, with the files using it, and the names used outside an iOS-only branch."""
    used = {}
    unguarded = set()
    for path in swift_files(root):
        with open(path, encoding="utf-8") as f:
            text = strip_comments_and_strings(f.read())
        for name in names_in(text):
            used.setdefault(name, set()).add(os.path.relpath(path, APP))
        unguarded.update(names_in(unguarded_lines(text)))
    return used, unguarded

def read_table():
    table = {}
    with open(TABLE, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 5:
                sys.exit(f"apple-apis.tsv:{number}: want 5 tab-separated fields, got {len(fields)}")
            table[fields[0]] = fields[1:]
    return table

def version(text):
    if text in ("-", ""):
        return None
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (2 - len(parts)))

def main():
    own = declared_names(os.path.join(APP, "Sources")) | set(os.listdir(os.path.join(APP, "Sources")))
    core = core_names(CORE_SOURCES)
    table = read_table()
    problems = []
    rows = []
    used, unguarded = used_names(os.path.join(APP, "Sources"))
    for name, files in sorted(used.items()):
        bare = name.lstrip(".")
        if name in PORTABLE or bare in own or bare in core:
            if name not in table:
                continue
        if name not in table:
            problems.append(f"{name}: used in {', '.join(sorted(files))} but not in apple-apis.tsv "
                            "(add it with the minimum OS from Apple's documentation)")
            continue
        framework, ios, macos, note = table[name]
        rows.append((name, framework, ios, macos, note))
        guarded = "iOS only" in note
        if guarded and name in unguarded:
            problems.append(f"{name}: iOS only, but used outside #if os(iOS) in {', '.join(sorted(files))}")
        if version(ios) is None or version(ios) > MIN_IOS:
            problems.append(f"{name}: needs iOS {ios}, above the app's iOS 17")
        if not guarded and (version(macos) is None or version(macos) > MIN_MACOS):
            problems.append(f"{name}: needs macOS {macos}, above the app's macOS 14 (or mark it 'iOS only' "
                            "and keep it inside #if os(iOS))")
    if "--list" in sys.argv:
        for row in rows:
            print("\t".join(row))
    for problem in problems:
        print("apple_apis.py: " + problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"apple_apis.py: {len(rows)} Apple APIs used, all within iOS 17 / macOS 14")

main()
