#!/usr/bin/env bash
# Rewrites the README's usage section (between the "usage: begin" and "usage: end" markers) with
# `quire help --markdown`, which is made from the CLI's command table.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product quire >/dev/null
usage="$(.build/debug/quire help --markdown)"
python3 - "$usage" <<'PY'
import sys
begin, end = "<!-- usage: begin -->\n", "<!-- usage: end -->"
text = open("README.md").read()
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open("README.md", "w").write(head + begin + sys.argv[1] + "\n" + end + tail)
PY
