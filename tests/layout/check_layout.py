#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_layout.py CORE_DIR — the include graph of core/ follows the stages.

The stage order is read from CORE_DIR/STAGES (one folder name a line, lowest
first). Three rules, each violation printed as FILE:LINE: message:

  1. every internal include names its stage: #include "model/build.h"
     (public headers are "fabriclint/x.h");
  2. a file includes no header of a stage above its own;
  3. no cycle among the .c files. File A depends on file B when A includes
     (directly or through other headers) a header that declares a function or
     variable that B defines and A uses (a name A defines static is A's own,
     whatever B defines). A cycle means two parts cannot be read, tested or
     replaced one without the other;
  4. the library prints nothing: no file of a stage but cli writes to
     stderr or stdout (fprintf(stderr, ...), printf, puts, perror, ...);
     it reports through fl_error or the host's event callback instead;
  5. the public headers (CORE_DIR/../include/fabriclint/) are the SDK, so
     they hold declarations and small inline accessors only (issue 29: an
     algorithm compiled into every plugin is one a host fix never reaches):
     they include only each other and system headers (<...>), never a
     header of core/; a static inline function body is at most
     INLINE_MAX lines (the few named in INLINE_EXEMPT excepted); and the
     headers whose algorithms moved into the host stay under
     PUBLIC_MAX_LINES lines.

Exit 0 when all hold, 1 when one does not, 2 on a usage error. Parsing is
lexical (comments and strings removed, identifiers matched by regex): the
core's style (definitions start in column 0, one per line) makes that exact
enough, and tests/cli/ci_layout.sh proves each rule fires.
"""
import os
import re
import sys

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)
IDENT_RE = re.compile(r'\b[A-Za-z_]\w*\b')
# a declaration or definition of a global: name followed by ( or [ or =
DECL_RE = re.compile(r'\b([A-Za-z_]\w*)\s*(?:\(|\[|=)')
# rule 4: writing to the process's standard streams
PRINT_RE = re.compile(r'\b(?:stderr|stdout|printf|vprintf|puts|putchar|'
                      r'perror)\b')
FORMAT_ATTR_RE = re.compile(r'format\s*\(\s*printf\b')  # an attribute
# rule 5: what a public header may hold
INLINE_MAX = 12
INLINE_EXEMPT = {
    'fl_emit_rooted': 'plugin.h: fills an fl_finding field by field',
    'jb_raw': 'json_buf.h: the evidence writer, header-only since ABI 1.0',
    'jb_escaped': 'json_buf.h: the evidence writer, header-only since ABI 1.0',
}
PUBLIC_MAX_LINES = {'view.h': 249, 'covers.h': 249, 'dist_split.h': 249}
INLINE_RE = re.compile(r'^static inline\b[^;{]*?\b([A-Za-z_]\w*)\s*\(', re.M)
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined',
            '__attribute__', 'format', 'typedef'}


# what strip_code() blanks, leftmost first: a block comment (to its end or
# the text's), a line comment (dropped; its newline kept), a string or
# character literal (a backslash escapes the next character, newlines
# included; an unterminated one runs to the end of the text)
STRIP_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*'
                      r'|"(?:\\.|[^"\\])*(?:(")|\\?\Z)'
                      r"|'(?:\\.|[^'\\])*(?:(')|\\?\Z)", re.S)


def _blank(m):
    s = m.group(0)
    if s.startswith('//'):
        return ''
    if s.startswith('/*'):
        return '\n'.join(' ' * len(part) for part in s.split('\n'))
    closed = m.group(1) is not None or m.group(2) is not None
    return s[0] + ' ' * (len(s) - (2 if closed else 1)) + s[0]


def strip_code(text):
    """Comments and string/char literals blanked, line structure kept (one
    regular-expression pass: a loop over the characters took most of the
    checker's second on core/, and tests/cli/ci_layout.sh runs it 15 times)."""
    return STRIP_RE.sub(_blank, text)


def top_level_lines(code):
    """(line number, text) of lines at brace depth 0 outside #directives."""
    depth = 0
    for no, line in enumerate(code.split('\n'), 1):
        if depth == 0 and not line.lstrip().startswith('#'):
            yield no, line
        if 'extern " "' not in line:  # extern "C" { ... } wraps, not nests
            depth = max(0, depth + line.count('{') - line.count('}'))


def declared(code):
    """Names a header declares (prototypes and extern variables)."""
    names = set()
    for _, line in top_level_lines(code):
        if line.lstrip().startswith(('typedef', 'struct', 'enum', 'union')):
            continue
        for m in DECL_RE.finditer(line):
            if m.group(1) not in KEYWORDS:
                names.add(m.group(1))
    return names


def defined(code):
    """Non-static functions and variables a .c file defines (column 0)."""
    names = set()
    for _, line in top_level_lines(code):
        if not re.match(r'[A-Za-z_]', line) or line.startswith(
                ('static', 'typedef', 'extern', 'struct', 'enum', 'union')):
            continue
        m = DECL_RE.search(line)
        if m and m.group(1) not in KEYWORDS:
            names.add(m.group(1))
    return names


def own_statics(code):
    """Static functions and variables a .c file defines or declares: a use
    of such a name is the file's own, whatever other files define."""
    names = set()
    for _, line in top_level_lines(code):
        if line.startswith('static'):
            m = DECL_RE.search(line)
            if m and m.group(1) not in KEYWORDS:
                names.add(m.group(1))
    return names


def load(core):
    stages_file = os.path.join(core, 'STAGES')
    with open(stages_file) as f:
        stages = [s.strip() for s in f
                  if s.strip() and not s.lstrip().startswith('#')]
    files = {}
    for stage in stages:
        d = os.path.join(core, stage)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith(('.c', '.h', '.def')):
                rel = stage + '/' + name
                with open(os.path.join(d, name), encoding='utf-8',
                          errors='replace') as f:
                    files[rel] = f.read()
    # the public headers (include/fabriclint/) declare what the core defines
    pub = os.path.join(core, '..', 'include', 'fabriclint')
    if os.path.isdir(pub):
        for name in sorted(os.listdir(pub)):
            if name.endswith('.h'):
                with open(os.path.join(pub, name), encoding='utf-8',
                          errors='replace') as f:
                    files['fabriclint/' + name] = f.read()
    return stages, files


def public_headers(files):
    """Rule 5 over the public headers (files named fabriclint/x.h)."""
    errors = []
    for rel, text in sorted(files.items()):
        if not rel.startswith('fabriclint/'):
            continue
        name = rel.split('/', 1)[1]
        where = 'include/%s' % rel
        for m in INCLUDE_RE.finditer(text):
            if not m.group(1).startswith('fabriclint/'):
                errors.append('%s:%d: #include "%s": a public header includes '
                              'only fabriclint/ and system headers (the SDK '
                              'ships include/ alone)' %
                              (where, text.count('\n', 0, m.start()) + 1,
                               m.group(1)))
        lines = text.count('\n')
        if name in PUBLIC_MAX_LINES and lines > PUBLIC_MAX_LINES[name]:
            errors.append('%s: %d lines, more than %d: declarations and '
                          'inline wrappers only, the algorithms run in the '
                          'host (fl_host_api)' %
                          (where, lines, PUBLIC_MAX_LINES[name]))
        code = strip_code(text)
        for m in INLINE_RE.finditer(code):
            start = code.index('{', m.end())
            depth, i = 0, start
            while i < len(code):
                depth += {'{': 1, '}': -1}.get(code[i], 0)
                if depth == 0:
                    break
                i += 1
            body = code.count('\n', start, i) - 1
            if body > INLINE_MAX and m.group(1) not in INLINE_EXEMPT:
                errors.append('%s:%d: static inline %s() has a %d-line body, '
                              'more than %d: an algorithm belongs in the core, '
                              'reached through fl_host_api' %
                              (where, code.count('\n', 0, m.start()) + 1,
                               m.group(1), body, INLINE_MAX))
    return errors


def check(core):
    stages, files = load(core)
    rank = {s: i for i, s in enumerate(stages)}
    errors = []
    includes = {}
    for rel, text in sorted(files.items()):
        stage = rel.split('/')[0]
        includes[rel] = []
        if stage == 'fabriclint':
            includes[rel] = [m.group(1) for m in INCLUDE_RE.finditer(text)
                             if m.group(1) in files]
            continue
        for m in INCLUDE_RE.finditer(text):
            inc = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            where = 'core/%s:%d' % (rel, line)
            if inc.startswith('fabriclint/'):
                if inc in files:
                    includes[rel].append(inc)
                continue
            parts = inc.split('/')
            if len(parts) != 2 or parts[0] not in rank:
                errors.append('%s: #include "%s" does not name its stage '
                              '(write "STAGE/%s", stages: %s)' %
                              (where, inc, parts[-1], ' < '.join(stages)))
                continue
            if inc not in files:
                errors.append('%s: #include "%s": no such file under core/' %
                              (where, inc))
                continue
            if rank[parts[0]] > rank[stage]:
                errors.append('%s: #include "%s": stage %s is above %s '
                              '(order: %s)' % (where, inc, parts[0], stage,
                                               ' < '.join(stages)))
            includes[rel].append(inc)

    code = {rel: strip_code(t) for rel, t in files.items()}
    for rel, c in sorted(code.items()):
        if rel.split('/')[0] in ('cli', 'fabriclint'):
            continue
        for no, line in enumerate(c.split('\n'), 1):
            m = PRINT_RE.search(FORMAT_ATTR_RE.sub('', line))
            if m:
                errors.append('core/%s:%d: %s: the library prints nothing '
                              '(report through fl_error or the host\'s event '
                              'callback; only core/cli/ prints)' %
                              (rel, no, m.group(0)))
    definer = {}
    for rel, c in code.items():
        if rel.endswith('.c'):
            for name in defined(c):
                definer.setdefault(name, rel)
    decls = {rel: declared(c) for rel, c in code.items() if rel.endswith('.h')}

    def reach(rel):
        seen, todo = set(), list(includes.get(rel, []))
        while todo:
            h = todo.pop()
            if h not in seen:
                seen.add(h)
                todo.extend(includes.get(h, []))
        return seen

    deps = {}
    for rel, c in code.items():
        if not rel.endswith('.c'):
            continue
        used = set(IDENT_RE.findall(c))
        visible = declared(c)  # its own prototypes of others' functions
        for h in reach(rel):
            visible |= decls.get(h, set())
        deps[rel] = {}
        for name in sorted((used & visible) - own_statics(c)):
            b = definer.get(name)
            if b and b != rel:
                deps[rel].setdefault(b, name)
    errors += cycles(deps)
    errors += public_headers(files)
    return errors, deps


def cycles(deps):
    """One message per strongly connected component of more than one file."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(deps.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comp.sort()
                edges = ['%s -> %s (%s)' % (a, b, deps[a][b]) for a in comp
                         for b in sorted(deps[a]) if b in comp]
                out.append('core/%s: include cycle among %s: %s' %
                           (comp[0], ', '.join(comp), '; '.join(edges)))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != '--graph'):
        print('usage: check_layout.py CORE_DIR [--graph]', file=sys.stderr)
        return 2
    try:
        errors, deps = check(argv[1])
    except OSError as e:
        print('check_layout.py: %s' % e, file=sys.stderr)
        return 2
    if len(argv) == 3:
        for a in sorted(deps):
            print(a, '->', ' '.join(sorted(deps[a])))
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
