#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/cli/set_rate.py IN OUT ATTR=VALUE SELECTOR...

Copy a design XML written by `fabriclint gen` (IN) to OUT with the
`speed` or `width` attribute of chosen <link> elements set to VALUE: the
"as built" side of the diff's rate tests (tests/cli/diff_rates.sh), derived
from a generated plan so that the counts at each threshold are exact.

SELECTOR: `node=NAME` every link of node NAME; `link=I` the I-th link of
the file (0-based, file order); `skip=NAME:K` leave out the K-th link of
node NAME that an earlier selector chose. Prints the number of links set;
exits 1 when a selector matches nothing.
"""
import re
import sys

src, dst, setting = sys.argv[1], sys.argv[2], sys.argv[3]
attr, value = setting.split("=", 1)
text = open(src, encoding="utf-8").read()
links = list(re.finditer(r"<link [^>]*/>", text))
chosen, skips = [], []
for sel in sys.argv[4:]:
    kind, arg = sel.split("=", 1)
    if kind == "node":
        hit = [i for i, m in enumerate(links)
               if re.search(r'\b[ab]="%s"' % re.escape(arg), m.group(0))]
    elif kind == "link":
        hit = [int(arg)] if int(arg) < len(links) else []
    elif kind == "skip":
        name, k = arg.rsplit(":", 1)
        mine = [i for i in chosen
                if re.search(r'\b[ab]="%s"' % re.escape(name), links[i].group(0))]
        hit = [mine[int(k)]] if int(k) < len(mine) else []
        skips += hit
        if not hit:
            sys.exit("set_rate.py: %s matches nothing" % sel)
        continue
    else:
        sys.exit("set_rate.py: unknown selector " + sel)
    if not hit:
        sys.exit("set_rate.py: %s matches nothing" % sel)
    chosen += [i for i in hit if i not in chosen]
chosen = [i for i in chosen if i not in skips]
out, last = [], 0
for i, m in enumerate(links):
    if i not in chosen:
        continue
    tag = re.sub(r'\b%s="[^"]*"' % attr, '%s="%s"' % (attr, value), m.group(0))
    out += [text[last:m.start()], tag]
    last = m.end()
out.append(text[last:])
open(dst, "w", encoding="utf-8").write("".join(out))
print(len(chosen))
