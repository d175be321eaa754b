#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/cli/real_corpus.py — pin fabriclint's verdicts on the real-fabric corpus.

The corpus is tests/data/real/ (PROVENANCE.md there): public captures and
plans, one per line of corpus.tsv ("ID<TAB>FILE[ FILE...]"; the files are
loaded together by one `fabriclint check --format json`, with the IBNL
definitions of tests/data/real/ibnl/). For each capture the pinned summary
(expected/ID.txt) holds:

  rc N                               exit status of check
  fabric S switches, C CAs, L links  what was loaded (or "refused" and the
                                     first 160 characters of the message)
  SEVERITY RULE COUNT nodes=N sha=H: a, b, ... (+K more)
                                     one line per (rule, severity) above info:
                                     how many findings, how many distinct
                                     nodes they name, a digest of the sorted
                                     node list and its first names

Lines starting with '#' are comments: the capture's id and files, and the
review of each finding class from judgements.tsv ("ID<TAB>RULE<TAB>TRUE|FALSE
<TAB>reason"; RULE "(refused)" reviews an exit-2 refusal); a finding judged FALSE is pinned as it is, marked
"# KNOWN FALSE", so that a fix shows up as an intentional update.

  real_corpus.py --fl build/fabriclint            compare, exit 1 on a change
  real_corpus.py --fl build/fabriclint --update   rewrite expected/*.txt
  real_corpus.py --fl build/fabriclint --doc      the review table (markdown)
"""
import argparse
import collections
import difflib
import hashlib
import json
import os
import subprocess
import sys

NAMES_SHOWN = 8


def load_corpus(root):
    rows = []
    with open(os.path.join(root, "corpus.tsv"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cid, files = line.split("\t")
            rows.append((cid, files.split()))
    return rows


def load_judgements(root):
    j = {}
    path = os.path.join(root, "judgements.tsv")
    if not os.path.exists(path):
        return j
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cid, rule, verdict, reason = line.split("\t")
            if verdict not in ("TRUE", "FALSE"):
                sys.exit(f"judgements.tsv:{n}: verdict must be TRUE or FALSE")
            j[(cid, rule)] = (verdict, reason)
    return j


IBNL_SYSTEM = "/usr/lib/x86_64-linux-gnu/ibdm1.5.7/ibnl"  # Debian libibdm1


def ibnl_path(root):
    """ibutils' IBNL definitions: the corpus's own copy, else libibdm1's."""
    own = os.path.join(root, "ibnl")
    return own if os.path.isdir(own) else IBNL_SYSTEM


def run_check(fl, root, files):
    env = dict(os.environ, FABRICLINT_IBNL_PATH=ibnl_path(root))
    p = subprocess.run([fl, "check", "--format", "json", "--"] + files,
                       cwd=root, env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def summarise(fl, root, cid, files):
    """The pinned lines of one capture and its groups (rule, severity, count)."""
    rc, out, err = run_check(fl, root, files)
    lines = [f"rc {rc}"]
    groups = []
    if rc == 2 or not out.strip():
        first = err.strip().splitlines()[0] if err.strip() else "(no message)"
        lines.append(f"refused {first[:160]}")
        return lines, groups
    d = json.loads(out)
    fab = d["fabric"]
    lines.append(f"fabric {fab['switches']} switches, {fab['cas']} CAs, "
                 f"{fab['links']} links")
    by = collections.OrderedDict()
    for x in d["findings"]:
        if x["severity"] == "info":
            continue
        by.setdefault((x["severity"], x["rule"]), []).append(x)
    order = {"error": 0, "warning": 1}
    for (sev, rule), fs in sorted(by.items(),
                                  key=lambda k: (order[k[0][0]], k[0][1])):
        nodes = sorted({n for x in fs for n in x.get("nodes", [])})
        sha = hashlib.sha1("\n".join(nodes).encode()).hexdigest()[:12]
        shown = ", ".join(nodes[:NAMES_SHOWN])
        more = f" (+{len(nodes) - NAMES_SHOWN} more)" if len(
            nodes) > NAMES_SHOWN else ""
        lines.append(f"{sev} {rule} {len(fs)} nodes={len(nodes)} sha={sha}: "
                     f"{shown}{more}")
        groups.append((sev, rule, len(fs), fs[0]["message"]))
    return lines, groups


def render(cid, files, lines, groups, judg):
    out = [f"# {cid}: " + " ".join(files)]
    for line in lines:
        out.append(line)
        parts = line.split(" ")
        if parts[0] == "refused":
            v = judg.get((cid, "(refused)"))
            if v is not None:
                out.append(("# KNOWN FALSE (wrong refusal): " if v[0] == "FALSE"
                             else "# refusal reviewed TRUE: ") + v[1])
        if parts[0] in ("error", "warning"):
            v = judg.get((cid, parts[1]))
            if v is None:
                out.append("# NOT REVIEWED")
            elif v[0] == "FALSE":
                out.append(f"# KNOWN FALSE: {v[1]}")
            else:
                out.append(f"# reviewed TRUE: {v[1]}")
    return "\n".join(out) + "\n"


def pinned(text):
    return [l for l in text.splitlines() if not l.startswith("#")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fl", required=True)
    meta_default = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "real")
    ap.add_argument("--meta", default=meta_default,
                    help="corpus.tsv, judgements.tsv and expected/ (in the repo)")
    ap.add_argument("--root", default=meta_default,
                    help="the capture files (not in the repo: PROVENANCE.md)")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--doc", action="store_true")
    a = ap.parse_args()
    fl = os.path.abspath(a.fl)
    root = os.path.abspath(a.root)
    meta = os.path.abspath(a.meta)
    judg = load_judgements(meta)
    exp_dir = os.path.join(meta, "expected")
    os.makedirs(exp_dir, exist_ok=True)
    changed = 0
    stats = collections.Counter()
    doc = []
    for cid, files in load_corpus(meta):
        lines, groups = summarise(fl, root, cid, files)
        text = render(cid, files, lines, groups, judg)
        path = os.path.join(exp_dir, cid + ".txt")
        stats["captures"] += 1
        if lines[1].startswith("refused"):
            stats["refused"] += 1
            v = judg.get((cid, "(refused)"), ("NOT REVIEWED", ""))
            stats[f"{v[0]} refusal"] += 1
            doc.append(f"| {cid} | (exit 2) | refused | 1 | **{v[0]}** | {v[1]} |")
        for sev, rule, n, msg in groups:
            v = judg.get((cid, rule), ("NOT REVIEWED", ""))
            stats[f"{v[0]} {sev}"] += 1
            doc.append(f"| {cid} | {sev} | `{rule}` | {n} | **{v[0]}** | {v[1]} |")
        if a.update:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            continue
        if a.doc:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                want = f.read()
        except FileNotFoundError:
            print(f"FAIL: {cid}: no expected/{cid}.txt")
            changed += 1
            continue
        if pinned(want) != pinned(text):
            changed += 1
            print(f"FAIL: {cid}: verdicts changed (expected/{cid}.txt):")
            sys.stdout.writelines(
                "  " + l + "\n" for l in difflib.unified_diff(
                    pinned(want), pinned(text), "expected", "now", lineterm="",
                    n=0))
    if a.doc:
        print("| capture | severity | rule | findings | verdict | why |")
        print("|---|---|---|---|---|---|")
        print("\n".join(doc))
        print()
        print(dict(stats))
        return 0
    if not a.update:
        print(f"{stats['captures']} captures, {changed} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
