#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_docs.py TREE — the docs and the sources' own headers match the tree.

Four rules, each violation printed as FILE:LINE: message:

  1. no merge-conflict marker (a line starting with "<<<<<<< ",
     ">>>>>>> " or a bare "=======" between them) in the documentation
     (*.md anywhere) or the sources (*.c, *.h, *.def, *.py, *.sh, *.bash,
     *.cmake, CMakeLists.txt, *.txt under core/, include/, plugins/,
     tests/ (not tests/fixtures or tests/data), bench/, examples/, cmake/);
  2. a source file whose opening comment starts with a path ("core/x/y.c —
     what it does") names a path that leads to it: its path from the top of
     the tree, or a tail of it at a "/" (the include name
     "fabriclint/view.h" of include/fabriclint/view.h; "host/host.h");
  3. docs/testing.md's count of mutants ("holds **N mutants**: area n,
     ...") is the number of mutants in tests/mutation/mutants.txt, in all
     and per area;
  4. a shell script that sets pipefail ends no pipeline in a reader that
     stops early (grep -q, grep -m, head) while an earlier command may
     still write: the writer then dies of SIGPIPE and pipefail turns a
     match into a failure, now and then (stop 46's CI: `ldd | grep -Eq`).
     Read the whole input (grep >/dev/null) or feed the reader from a
     file or a variable; a head whose pipeline ends in "|| true" is fine.

Exit 0 when all hold, 1 when one does not, 2 on a usage error.
tests/cli/ci_layout.sh proves each rule fires.
"""
import os
import re
import sys

SOURCE_DIRS = ('core', 'include', 'plugins', 'tests', 'bench', 'examples',
               'cmake')
SKIP_DIRS = {'.git', 'fixtures', 'data', '__pycache__'}
SOURCE_EXT = ('.c', '.h', '.def', '.py', '.sh', '.bash', '.cmake', '.txt')
PATH_RE = re.compile(r'^([\w.+-]+(?:/[\w.+-]+)*\.[A-Za-z]+)\s+(?:—|--?)\s')


def walk(top, rel):
    for root, dirs, files in os.walk(os.path.join(top, rel)):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not d.startswith('build'))
        for f in sorted(files):
            yield os.path.relpath(os.path.join(root, f), top)


def docs_and_sources(top):
    """(path, is_source) of every file rule 1 reads."""
    seen = set()
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and
                         not d.startswith('build') and d != '.library')
        for f in sorted(files):
            if f.endswith('.md'):
                p = os.path.relpath(os.path.join(root, f), top)
                seen.add(p)
                yield p, False
    for d in SOURCE_DIRS:
        for p in walk(top, d):
            if p in seen:
                continue
            base = os.path.basename(p)
            if p.endswith(SOURCE_EXT) or base == 'CMakeLists.txt':
                yield p, True


def read(top, rel):
    try:
        with open(os.path.join(top, rel), encoding='utf-8') as fh:
            return fh.read()
    except (UnicodeDecodeError, OSError):
        return None


def conflict_markers(top):
    bad = []
    for rel, _ in docs_and_sources(top):
        text = read(top, rel)
        if text is None or ('<<<<<<<' not in text and '>>>>>>>' not in text):
            continue
        inside = False
        for no, line in enumerate(text.split('\n'), 1):
            if line.startswith('<<<<<<<'):
                inside = True
                bad.append(f'{rel}:{no}: merge-conflict marker "{line[:40]}"')
            elif line.startswith('>>>>>>>'):
                inside = False
                bad.append(f'{rel}:{no}: merge-conflict marker "{line[:40]}"')
            elif inside and line.rstrip() == '=======':
                bad.append(f'{rel}:{no}: merge-conflict marker "======="')
    return bad


def opening_line(text):
    """(line number, text) of the first line of the file's opening comment."""
    lines = text.split('\n')
    i = 0
    if lines and lines[0].startswith('#!'):
        i = 1
    # the licence line (tests/cli/spdx.sh) comes before the opening comment
    while i < len(lines) and (not lines[i].strip() or
                              'SPDX-License-Identifier' in lines[i]):
        i += 1
    if i >= len(lines):
        return None
    line = lines[i].strip()
    if line.startswith('/*'):
        body = line[2:].lstrip('*').strip()
        if not body and i + 1 < len(lines):
            i += 1
            body = lines[i].strip().lstrip('*').strip()
        return i + 1, body
    if line.startswith('//'):
        return i + 1, line[2:].strip()
    if line.startswith('#') and not line.startswith(('#include', '#define',
                                                     '#if', '#pragma')):
        return i + 1, line.lstrip('#').strip()
    if line.startswith(('"""', "'''")):
        return i + 1, line[3:].strip()
    return None


def stale_paths(top):
    bad = []
    for d in SOURCE_DIRS:
        for rel in walk(top, d):
            if not rel.endswith(SOURCE_EXT[:-1]):  # not *.txt
                continue
            text = read(top, rel)
            first = opening_line(text) if text else None
            if not first:
                continue
            m = PATH_RE.match(first[1])
            if not m:
                continue
            named = m.group(1)
            if rel != named and not rel.endswith('/' + named):
                bad.append(f'{rel}:{first[0]}: the opening comment names '
                           f'{named}, not this file ({rel})')
    return bad


def mutant_counts(top):
    lst = os.path.join(top, 'tests/mutation/mutants.txt')
    doc = os.path.join(top, 'docs/testing.md')
    if not os.path.isfile(lst) or not os.path.isfile(doc):
        return []
    per = {}
    for line in open(lst, encoding='utf-8'):
        m = re.match(r'\[[^\]]+\]\s+(\S+)\s+\S+\s*$', line)
        if m:
            per[m.group(1)] = per.get(m.group(1), 0) + 1
    total = sum(per.values())
    text = open(doc, encoding='utf-8').read()
    m = re.search(r'holds \*\*(\d+) mutants\*\*:([^.(]*)', text)
    if not m:
        return ['docs/testing.md: no "holds **N mutants**: AREA n, ..." '
                f'sentence (tests/mutation/mutants.txt has {total})']
    no = text[:m.start()].count('\n') + 1
    bad = []
    if int(m.group(1)) != total:
        bad.append(f'docs/testing.md:{no}: says {m.group(1)} mutants, '
                   f'tests/mutation/mutants.txt has {total}')
    said = {a: int(n) for a, n in  # area names may end in digits: loaders2
            re.findall(r'([a-z][a-z0-9]*)\s+(\d+)',
                       m.group(2).replace('\n', ' '))}
    for area in sorted(set(said) | set(per)):
        if said.get(area) != per.get(area):
            bad.append(f'docs/testing.md:{no}: says {said.get(area, 0)} '
                       f'{area} mutants, tests/mutation/mutants.txt has '
                       f'{per.get(area, 0)}')
    return bad


EARLY_STOP = re.compile(
    r'\|\s*(?:grep\s+(?:-[A-Za-z]*[qm]|--quiet|--max-count)|head\b)')


def shell_scripts(top):
    for d in SOURCE_DIRS + ('.ci',):
        for rel in walk(top, d):
            if rel.endswith(('.sh', '.bash')) or rel == '.ci/run':
                yield rel
    for f in sorted(os.listdir(top)):
        if f.endswith('.sh'):
            yield f


def pipefail_early_stops(top):
    bad = []
    for rel in shell_scripts(top):
        text = read(top, rel)
        if not text or not re.search(r'^\s*set\s+-[A-Za-z]*o\s+pipefail',
                                     text, re.M):
            continue
        for no, line in enumerate(text.split('\n'), 1):
            code = line.split(' #', 1)[0]
            if code.lstrip().startswith('#'):
                continue
            m = EARLY_STOP.search(code)
            if not m or (m.group(0).lstrip('| ').startswith('head') and
                         re.search(r'\|\|\s*true\b', code)):
                continue
            bad.append(f'{rel}:{no}: pipefail, and the pipeline ends in '
                       f'"{m.group(0).lstrip("| ").strip()}", which may stop '
                       'reading before the writer ends (SIGPIPE)')
    return bad


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write(__doc__)
        return 2
    top = argv[1]
    bad = (conflict_markers(top) + stale_paths(top) + mutant_counts(top) +
           pipefail_early_stops(top))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
