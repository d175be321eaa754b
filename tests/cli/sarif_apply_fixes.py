#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sarif_apply_fixes.py SARIF SRC OUT — apply the replacements of every
SARIF fix (deletedRegion line/column, columnKind unicodeCodePoints) whose
artifactLocation is SRC's name, as a SARIF viewer's "apply fix" would, and
write OUT. Prints the number of edits. Edits spanning lines, or
overlapping ones, are refused (exit 1)."""
import json
import os
import sys

d = json.load(open(sys.argv[1]))
run = d["runs"][0]
if run.get("columnKind") != "unicodeCodePoints":
    sys.exit("columnKind is not unicodeCodePoints")
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
name = os.path.basename(sys.argv[2])
edits = []
for r in run["results"]:
    for f in r.get("fixes", []):
        for ch in f["artifactChanges"]:
            if os.path.basename(ch["artifactLocation"]["uri"]) != name:
                continue
            for rep in ch["replacements"]:
                g = rep["deletedRegion"]
                if g["startLine"] != g["endLine"]:
                    sys.exit("edit spans lines")
                edits.append((g["startLine"], g["startColumn"], g["endColumn"],
                              rep["insertedContent"]["text"]))
edits.sort(reverse=True)
for (l1, c1, e1, _), (l2, c2, e2, _) in zip(edits, edits[1:]):
    if l1 == l2 and e2 > c1:
        sys.exit("overlapping edits on line %d" % l1)
for line, col, end, text in edits:
    s = lines[line - 1]
    lines[line - 1] = s[:col - 1] + text + s[end - 1:]
open(sys.argv[3], "w", encoding="utf-8").write("\n".join(lines))
print(len(edits), "edits")
