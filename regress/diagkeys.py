"""Prints the distinct diagnostic lines of compiler output files, sorted, as "file:line: kind: message"
(columns, notes, source excerpts, summaries and the driver's words about the command line dropped),
and pathcc's own lines whole, for comparing two compiles' diagnostics (regress/e2e/compilers.sh).
The same reading as translator/pathcc/diag.c, which does not look for pathcc's lines.

usage: python3 diagkeys.py FILE..."""
import re
import sys

KIND = re.compile(r": (fatal error|error|warning): ")
COLOUR = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def key(line):
    line = COLOUR.sub("", line.rstrip("\n"))
    if line.startswith("pathcc: "):  # pathcc's own words: never in a plain compile's output
        return line
    m = KIND.search(line)
    if not m or m.start() == 0:
        return None
    loc = re.sub(r"(:\d+):\d+$", r"\1", line[:m.start()])
    return loc + line[m.start():] if re.search(r":\d+$", loc) else None


keys = set()
for path in sys.argv[1:]:
    try:
        for line in open(path, errors="replace"):
            k = key(line)
            if k:
                keys.add(k)
    except OSError:
        pass
for k in sorted(keys):
    print(k)
