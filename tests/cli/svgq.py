#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/cli/svgq.py — query a Graphviz SVG (or the inline SVGs of an HTML
report) for the picture tests (tests/cli/pictures.sh).

  svgq.py FILE class ID         the element's class attribute, or MISSING
  svgq.py FILE title ID         the tooltip (xlink:title) inside the element
  svgq.py FILE stroke ID        the stroke colour of its first path/polygon
  svgq.py FILE fill ID          the fill of its first polygon/ellipse
  svgq.py FILE dash ID          the stroke-dasharray of its first path
  svgq.py FILE text ID          the text inside the element, joined by spaces
  svgq.py FILE alltext          all text of the document, joined by spaces
  svgq.py FILE ids PREFIX       the ids starting with PREFIX, sorted, one a line
  svgq.py FILE count CLASS      elements whose class list holds CLASS

Ids and texts are compared after XML decoding (Graphviz writes '-' as
&#45;). An HTML file is read from its first <svg to its last </svg>.

  svgq.py --serve OWNER_PID     answer queries on stdin, one interpreter
                                for a whole test (tests/cli/pictures.sh asks
                                about 90): a query is its argument count and
                                the arguments above, each ended by NUL; the
                                answer is the exit status digit, what the
                                query prints, and a NUL. A file is parsed
                                again only when its bytes change. Leaves at
                                the end of its input or when OWNER_PID is gone.
"""
import io
import os
import re
import select
import sys
import traceback
import xml.etree.ElementTree as ET

XLINK = "{http://www.w3.org/1999/xlink}"


def load(path):
    data = open(path, encoding="utf-8").read()
    if not data.lstrip().startswith("<?xml"):
        svgs = re.findall(r"<svg\b.*?</svg>", data, flags=re.S)
        data = "<root>" + "".join(svgs) + "</root>"
    else:
        data = re.sub(r"<!DOCTYPE[^>]*>", "", data)
    return ET.fromstring(data)


def local(tag):
    return tag.rsplit("}", 1)[-1]


def by_id(root, ident):
    for el in root.iter():
        if el.get("id") == ident:
            return el
    return None


def first(el, tags, attr):
    for sub in el.iter():
        if local(sub.tag) in tags and sub.get(attr) not in (None, "none", "transparent"):
            return sub.get(attr)
    return ""


def texts(el):
    return " ".join(" ".join(t.strip() for t in el.itertext() if t.strip()).split())


def main(argv):
    root = load(argv[1])
    what = argv[2]
    if what == "alltext":
        print(texts(root))
        return 0
    if what == "ids":
        print("\n".join(sorted(e.get("id") for e in root.iter()
                               if (e.get("id") or "").startswith(argv[3]))))
        return 0
    if what == "count":
        print(sum(1 for e in root.iter() if argv[3] in (e.get("class") or "").split()))
        return 0
    el = by_id(root, argv[3])
    if el is None:
        print("MISSING")
        return 0
    if what == "class":
        print(el.get("class") or "")
    elif what == "title":
        for sub in el.iter():
            if sub.get(XLINK + "title"):
                print(sub.get(XLINK + "title"))
                break
        else:
            print("")
    elif what == "stroke":
        print(first(el, ("path", "polygon", "ellipse"), "stroke"))
    elif what == "fill":
        print(first(el, ("polygon", "ellipse"), "fill"))
    elif what == "dash":
        print(first(el, ("path",), "stroke-dasharray"))
    elif what == "text":
        print(texts(el))
    else:
        print("unknown query " + what, file=sys.stderr)
        return 2
    return 0


def serve(owner):
    pend, cache, real_load = bytearray(), {}, load

    def alive():
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True

    def field():
        while b"\0" not in pend:
            while not select.select([0], [], [], 5)[0]:
                if not alive():
                    sys.exit(0)
            c = os.read(0, 65536)
            if not c:
                sys.exit(0)
            pend.extend(c)
        i = pend.index(b"\0")
        f = bytes(pend[:i])
        del pend[:i + 1]
        return f.decode("utf-8", "surrogateescape")

    def cached_load(path):
        with open(path, "rb") as fh:
            raw = fh.read()
        if path not in cache or cache[path][0] != raw:
            cache[path] = (raw, real_load(path))
        return cache[path][1]

    globals()["load"] = cached_load
    out = sys.stdout.buffer
    while True:
        argv = ["svgq.py"] + [field() for _ in range(int(field()))]
        sys.stdout = buf = io.StringIO()
        try:
            status = main(argv)
        except Exception:
            traceback.print_exc()
            sys.stderr.flush()
            status = 1
        sys.stdout = sys.__stdout__
        text = buf.getvalue().encode("utf-8", "surrogateescape")
        out.write(b"%d" % status + text.replace(b"\0", b"") + b"\0")
        out.flush()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]))
    sys.exit(main(sys.argv))
