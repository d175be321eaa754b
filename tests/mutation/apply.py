#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/mutation/apply.py — read tests/mutation/mutants.txt; list or apply one.

  apply.py list  MUTANTS [ID-or-AREA...]     print "ID AREA FILE" lines
  apply.py apply MUTANTS ID TREE BACKUP      mutate TREE's copy of the file,
                                             keeping the original in BACKUP
  apply.py check MUTANTS TREE                every snippet found exactly once

A mutant names its file by basename and its code by a snippet, never by a
line number, so the list survives edits elsewhere and core/ moving into
subfolders. Exit 0 on success, 2 when a snippet is missing or not unique
(the mutant is stale: update mutants.txt), 1 on usage errors.
"""
import os
import sys


def parse(path):
    muts, cur = [], None
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("["):
                head = line[1:].split("]", 1)
                ident = head[0].strip()
                rest = head[1].split() if len(head) > 1 else []
                if len(rest) != 2:
                    sys.exit(f"{path}:{n}: expected '[ID] AREA FILE'")
                cur = {"id": ident, "area": rest[0], "file": rest[1], "line": n}
                muts.append(cur)
                continue
            key, sep, val = line.partition(": ")
            if not sep or cur is None or key not in ("desc", "from", "to"):
                sys.exit(f"{path}:{n}: expected 'desc: ', 'from: ' or 'to: '")
            cur[key] = val.lstrip(" ").replace("\\n", "\n")
    for m in muts:
        for k in ("desc", "from", "to"):
            if k not in m:
                sys.exit(f"{path}:{m['line']}: mutant {m['id']} lacks '{k}:'")
    ids = [m["id"] for m in muts]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"{path}: duplicate mutant ids: {sorted(dup)}")
    return muts


def locate(tree, base):
    if "/" in base:  # a path from the top of the tree (basenames that repeat)
        path = os.path.join(tree, base)
        return [path] if os.path.isfile(path) else []
    hits = []
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in (".git", "build") and
                   not d.startswith("build")]
        if base in files:
            hits.append(os.path.join(root, base))
    return hits


def check_one(tree, m):
    hits = locate(tree, m["file"])
    if len(hits) != 1:
        return None, f"{m['id']}: {len(hits)} files named {m['file']}"
    text = open(hits[0], encoding="utf-8").read()
    n = text.count(m["from"])
    if n != 1:
        return None, f"{m['id']}: snippet found {n} times in {hits[0]}"
    return (hits[0], text), None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, muts = argv[1], parse(argv[2])
    if cmd == "list":
        want = set(argv[3:])
        for m in muts:
            if not want or m["id"] in want or m["area"] in want:
                print(m["id"], m["area"], m["file"], "\t" + m["desc"])
        return 0
    if cmd == "check":
        bad = [e for e in (check_one(argv[3], m)[1] for m in muts) if e]
        for e in bad:
            print("stale:", e, file=sys.stderr)
        return 2 if bad else 0
    if cmd == "apply":
        m = next((x for x in muts if x["id"] == argv[3]), None)
        if m is None:
            sys.exit(f"no mutant {argv[3]}")
        found, err = check_one(argv[4], m)
        if err:
            print("stale:", err, file=sys.stderr)
            return 2
        path, text = found
        with open(argv[5], "w", encoding="utf-8") as fh:
            fh.write(text)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace(m["from"], m["to"], 1))
        print(path)
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
