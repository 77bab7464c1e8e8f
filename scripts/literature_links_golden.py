#!/usr/bin/env python3
"""Regenerate pipeline/report/testdata/literature_links.json.

The golden vectors of the literature-identifier autolinking in `nullius
report links` (close-prior-and-writeback.md §4.2): each input line and what
the reference normalizer makes of it. The three patterns are restated from
the spec and issue 12 and run with Python's own `re` (Unicode \\s, \\d, \\w,
IGNORECASE), so the Go port is checked against Python's regex semantics, not
against a second Go reading of them. Run from the repository root:

    python3 scripts/literature_links_golden.py
"""
import json
import re
import sys

# arXiv:<id>[vN], DOI:<doi>, INSPIRE recid[:] <n>; any case; whitespace
# after the colon; not right after a word character or a slash.
ARXIV = re.compile(r"(?<![\w/])arXiv:\s*(\d{4}\.\d{4,5})(v\d+)?", re.IGNORECASE)
DOI = re.compile(r"(?<![\w/])DOI:\s*(10\.\d{4,9}/[^\s)\],;]+)", re.IGNORECASE)
INSPIRE = re.compile(r"(?<![\w/])INSPIRE\s+recid\s*:?\s*(\d+)", re.IGNORECASE)


def link(segment):
    segment = ARXIV.sub(lambda m: "[arXiv:{0}](https://arxiv.org/abs/{0})".format(m.group(1) + (m.group(2) or "")), segment)

    def doi(m):
        d = m.group(1).rstrip(".")
        return "[DOI:{0}](https://doi.org/{0}){1}".format(d, "." if m.group(1).endswith(".") else "")

    segment = DOI.sub(doi, segment)
    return INSPIRE.sub(lambda m: "[INSPIRE recid {0}](https://inspirehep.net/literature/{0})".format(m.group(1)), segment)


# Issue 12's seven lines first, then every case, whitespace, colon,
# boundary and digit variant.
INPUTS = [
    "INSPIRE recid : 2900001",
    "inspire recid 2853359",
    "INSPIRE  recid 2853359",
    "arXiv: 2411.18257",
    "arxiv:2411.18257",
    "doi:10.1000/example",
    "DOI: 10.1000/example",
    # case
    "arXiv:2411.18257", "ARXIV:2411.18257", "ArXiV:2411.18257v3", "Doi:10.1000/x", "dOi:10.1000/x",
    "Inspire Recid 12345", "INSPIRE RECID: 12345", "INſPIRE recid 12345", "ARXİV:2411.18257",
    # whitespace after the colon and between the words
    "arXiv:\t2411.18257", "arXiv:  2411.18257", "arXiv:\u00a02411.18257", "arXiv:\u20032411.18257",
    "arXiv:\u30002411.18257", "DOI:\t10.1000/x", "DOI:\u00a010.1000/x", "DOI:\u202f10.1000/x",
    "INSPIRE\trecid 12345", "INSPIRE\u00a0recid\u00a012345", "INSPIRE recid\t:\t12345", "INSPIRE   recid   :   12345",
    "INSPIRE recid:12345", "INSPIRE recid :12345", "INSPIRE recid: 12345", "INSPIRE recid12345",
    "INSPIRE\u2028recid 12345",
    # not identifiers: no colon, a space before the colon, no space between the words
    "arXiv 2411.18257", "arXiv :2411.18257", "DOI 10.1000/x", "DOI :10.1000/x", "INSPIRErecid 12345",
    "INSPIRE recid", "arXiv:241.18257", "arXiv:2411.183", "DOI:10.12/x", "DOI:11.1000/x",
    # versions and lengths
    "arXiv:2411.18257v2", "arXiv:2411.1825", "arXiv:2411.182571", "arXiv:2411.18257v", "arxiv: 2411.18257V2",
    # DOI ends
    "DOI:10.1000/x.", "DOI:10.1000/x, and more", "DOI:10.1000/x; next", "DOI:10.1000/x) after", "DOI:10.1000/x] after",
    "DOI:10.1000/a.b.c", "DOI:10.1000/x:y", "(DOI: 10.1000/x)", "DOI:10.1000/x..",
    # what may come before
    "see arXiv:2411.18257.", "(arXiv:2411.18257)", "[arXiv:2411.18257]", "\"arXiv:2411.18257\"", "-arXiv:2411.18257",
    ".arXiv:2411.18257", "xarXiv:2411.18257", "_arXiv:2411.18257", "5arXiv:2411.18257", "/arXiv:2411.18257",
    "éarXiv:2411.18257", "中arXiv:2411.18257", "https://example.org/doi:10.1000/x", "xDOI:10.1000/x", "x INSPIRE recid 1",
    "xINSPIRE recid 12345 and INSPIRE recid 23456",
    # several on a line, mixed
    "arXiv:2411.18257, DOI:10.1000/demo, INSPIRE recid 2853359.",
    "arxiv: 2411.18257 doi: 10.1000/demo inspire recid: 2853359",
    # Unicode digits (Python's \d)
    "arXiv:\u0662\u0664\u0661\u0661.\u0661\u0668\u0662\u0665\u0667", "INSPIRE recid \u0661\u0662\u0663",
]


def main():
    vectors = [{"in": s, "out": link(s)} for s in INPUTS]
    out = "pipeline/report/testdata/literature_links.json"
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"generator": "scripts/literature_links_golden.py", "python": sys.version.split()[0], "vectors": vectors},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
