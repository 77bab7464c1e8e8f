#!/usr/bin/env python3
"""Golden data for pyscan's \\N{...} escapes, from CPython 3.11.

Writes two files (run from the repository root):

  pyscan/namealiases.go
      the Unicode name aliases (NameAliases.txt, UCD 14.0, as Perl's
      Unicode::UCD ships it), each checked here to decode in CPython, as a
      sorted Go table.

  fixtures/unicode/cpython311_names.txt.gz
      what CPython's unicode-escape decoder (the one string literals use)
      gives for "\\N{name}", for every character name and alias CPython knows,
      the computed CJK UNIFIED IDEOGRAPH-XXXX ranges, every HANGUL SYLLABLE,
      and probes of case and of names CPython refuses. pyscan's tests compare
      their decoding of every name against it, without Python at test time.

Usage: python3 scripts/unicode_names_golden.py   (needs python3 3.11, perl and gofmt)
"""
import codecs
import gzip
import subprocess
import sys
import unicodedata

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11 (the reference's Python)"
UCD = unicodedata.unidata_version


def decode(name):
    """What "\\N{name}" is in a Python string literal: the code point, or None."""
    try:
        v = codecs.decode(b"\\N{" + name.encode("ascii") + b"}", "unicode_escape")
    except UnicodeDecodeError:
        return None
    return ord(v) if len(v) == 1 else None


def aliases():
    out = subprocess.run(
        ["perl", "-MUnicode::UCD=prop_invmap", "-e", r'''
my ($l, $m, $f, $d) = prop_invmap("Name_Alias");
print Unicode::UCD::UnicodeVersion(), "\n";
for my $i (0 .. $#$l) {
    my $v = $m->[$i];
    next if !ref $v && $v eq $d;
    for my $x (ref $v ? @$v : ($v)) { printf "%04X;%s\n", $l->[$i], $x }
}'''], check=True, capture_output=True, text=True).stdout.splitlines()
    assert out[0] == UCD, f"Perl's UCD is {out[0]}, CPython's {UCD}"
    res = []
    for line in out[1:]:
        cp, rest = line.split(";", 1)
        name, kind = rest.rsplit(": ", 1)
        cp = int(cp, 16)
        assert decode(name) == cp, f"CPython does not decode alias {name!r} to U+{cp:04X}"
        res.append((name, cp, kind))
    return res


def computed_cjk(cp):
    return unicodedata.name(chr(cp), "") == f"CJK UNIFIED IDEOGRAPH-{cp:04X}"


def main():
    al = aliases()
    names, cjk, hangul = [], [], []
    for cp in range(0x110000):
        n = unicodedata.name(chr(cp), None)
        if n is None:
            continue
        if n.startswith("CJK UNIFIED IDEOGRAPH-") and computed_cjk(cp):
            if cjk and cjk[-1][1] == cp - 1:
                cjk[-1][1] = cp
            else:
                cjk.append([cp, cp])
            continue
        got = decode(n)
        assert got == cp, f"{n}: CPython decodes to {got}"
        (hangul if n.startswith("HANGUL SYLLABLE ") else names).append((n, cp))
    probes = []
    def probe(n):
        # Probes go through a real string literal, non-ASCII text included.
        try:
            v = eval('"\\N{' + n + '}"', {})
            got = ord(v) if len(v) == 1 else None
        except SyntaxError:
            got = None
        probes.append((n, "-" if got is None else f"{got:04X}"))
    for n in ["latin small letter o with acute", "Latin Small Letter O With Acute", "bel", "Bel",
              "cjk unified ideograph-6771", "CJK UNIFIED IDEOGRAPH-6771", "CJK UNIFIED IDEOGRAPH-6771 ",
              "cjk unified ideograph-6771".upper(), "Cjk Unified Ideograph-6771", "CJK UNIFIED IDEOGRAPH-06771",
              "CJK UNIFIED IDEOGRAPH-677", "CJK UNIFIED IDEOGRAPH-0041", "CJK UNIFIED IDEOGRAPH-2A6DF",
              "CJK UNIFIED IDEOGRAPH-2A6E0", "CJK UNIFIED IDEOGRAPH-31350", "CJK UNIFIED IDEOGRAPH-F900",
              "hangul syllable ga", "HANGUL SYLLABLE GA", "hangul syllable GA", "Hangul Syllable Ga",
              "HANGUL SYLLABLE GAG", "HANGUL SYLLABLE GGAGG", "HANGUL SYLLABLE A", "HANGUL SYLLABLE ",
              "HANGUL SYLLABLE GAX", "HANGUL SYLLABLE WAE", "HANGUL SYLLABLE YAE", "HANGUL SYLLABLE SSANG",
              "TANGUT IDEOGRAPH-17000", "GRINNING FACE", "grinning face", " GRINNING FACE", "GRINNING  FACE",
              "GRINNING-FACE", "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE", "KHITAN SMALL SCRIPT CHARACTER-18B00",
              "NUSHU CHARACTER-1B170", "CJK COMPATIBILITY IDEOGRAPH-F900", "cjk compatibility ideograph-f900",
              "LATIN CAPITAL LETTER GHA", "latin capital letter gha", "BYTE ORDER MARK", "NULL", "NUL", "null",
              "VARIATION SELECTOR-17", "variation selector-17", "SPACE", "NO-BREAK SPACE", "NBSP", "nbsp",
              "\u00e9", "LATIN SMALL LETTER \u00c9", "DIGIT ZERO", "DIGIT ZER0"]:
        probe(n)
    with gzip.GzipFile("fixtures/unicode/cpython311_names.txt.gz", "wb", mtime=0) as f:
        w = lambda s: f.write((s + "\n").encode("utf-8"))
        w(f"# \\N{{...}} in CPython {sys.version.split()[0]} (Unicode {UCD}); scripts/unicode_names_golden.py")
        w("# name<TAB>NAME<TAB>HEX | alias<TAB>NAME<TAB>HEX | cjk<TAB>FIRST<TAB>LAST | probe<TAB>TEXT<TAB>HEX or -")
        for n, cp in names + hangul:
            w(f"name\t{n}\t{cp:04X}")
        for n, cp, _ in al:
            w(f"alias\t{n}\t{cp:04X}")
        for a, b in cjk:
            w(f"cjk\t{a:04X}\t{b:04X}")
        for n, v in probes:
            w(f"probe\t{n}\t{v}")
    al.sort()
    with open("pyscan/namealiases.go", "w") as f:
        f.write("// Code generated by scripts/unicode_names_golden.py from NameAliases.txt\n")
        f.write(f"// (UCD {UCD}, as Perl's Unicode::UCD ships it); DO NOT EDIT.\n\npackage pyscan\n\n")
        f.write("// nameAliases are the Unicode name aliases (corrections, control names,\n")
        f.write("// alternates, figments, abbreviations), sorted by name; \\N{...} accepts\n")
        f.write("// them as Python does.\n")
        f.write("var nameAliases = [...]struct {\n\tname string\n\tr    rune\n}{\n")
        for n, cp, kind in al:
            f.write(f'\t{{"{n}", 0x{cp:04X}}}, // {kind}\n')
        f.write("}\n")
    subprocess.run(["gofmt", "-w", "pyscan/namealiases.go"], check=True)
    print(f"{len(names)} names, {len(hangul)} Hangul syllables, {len(al)} aliases, {len(cjk)} CJK ranges, {len(probes)} probes")


if __name__ == "__main__":
    main()
