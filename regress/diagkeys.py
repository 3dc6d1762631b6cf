"""Prints the distinct diagnostic lines of compiler output files, sorted, as "file:line: kind: message"
(columns, notes, source excerpts and summaries dropped), for comparing two compiles' diagnostics
(regress/e2e/compilers.sh). The same reading as translator/pathcc/diag.c.

usage: python3 diagkeys.py FILE..."""
import re
import sys

KIND = re.compile(r": (fatal error|error|warning): ")
COLOUR = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def key(line):
    line = COLOUR.sub("", line.rstrip("\n"))
    m = KIND.search(line)
    if not m or m.start() == 0:
        return None
    loc = re.sub(r"(:\d+):\d+$", r"\1", line[:m.start()])
    return loc + line[m.start():]


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
