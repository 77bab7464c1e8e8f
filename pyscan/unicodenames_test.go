package pyscan

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/runenames"
)

// decodeName decodes "\N{name}" with pyscan's string-literal decoder.
func decodeName(name string) (rune, bool) {
	got, msg := decodeStringToken(`"\N{`+name+`}"`, true)
	r := []rune(got.value)
	if msg != "" || len(r) != 1 {
		return 0, false
	}
	return r[0], true
}

// TestUnicodeNamesAgainstCPython compares the decoding of every \N{...}
// name CPython 3.11 knows (character names, Hangul syllables, aliases,
// the CJK ranges, and probes of case and of refused names) with what
// CPython decodes, from fixtures/unicode/cpython311_names.txt.gz
// (scripts/unicode_names_golden.py). Names CPython 3.11 does not know are
// characters of a later Unicode (x/text carries 15.0, Python 3.12's), so
// their code points must be unnamed in CPython 3.11.
func TestUnicodeNamesAgainstCPython(t *testing.T) {
	f, err := os.Open("../fixtures/unicode/cpython311_names.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	named := map[rune]bool{} // code points CPython 3.11 names
	counts := map[string]int{}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("bad line %q", line)
		}
		kind, name, val := parts[0], parts[1], parts[2]
		counts[kind]++
		hex := func(s string) rune {
			v, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				t.Fatalf("bad hex in %q", line)
			}
			return rune(v)
		}
		switch kind {
		case "name", "alias":
			want := hex(val)
			named[want] = true
			if got, ok := decodeName(name); !ok || got != want {
				t.Errorf(`\N{%s}: got U+%04X (%v), CPython U+%04X`, name, got, ok, want)
			}
			if kind == "name" && !strings.HasPrefix(name, "HANGUL") {
				if got, ok := decodeName(strings.ToLower(name)); !ok || got != want {
					t.Errorf(`\N{%s} (lower case): got U+%04X (%v), CPython U+%04X`, strings.ToLower(name), got, ok, want)
				}
			}
		case "cjk":
			lo, hi := hex(name), hex(val)
			for r := lo; r <= hi; r++ {
				named[r] = true
				n := fmt.Sprintf("CJK UNIFIED IDEOGRAPH-%04X", r)
				if got, ok := decodeName(n); !ok || got != r {
					t.Errorf(`\N{%s}: got U+%04X (%v)`, n, got, ok)
				}
			}
		case "probe":
			got, ok := decodeName(name)
			if val == "-" {
				// A character of a later Unicode than CPython 3.11's is
				// the one accepted difference (Python 3.12 names it).
				newer := ok && !named[got] && (runenames.Name(got) == strings.ToUpper(name) ||
					strings.HasPrefix(runenames.Name(got), "<CJK Ideograph") && name == fmt.Sprintf("CJK UNIFIED IDEOGRAPH-%04X", got))
				if ok && !newer {
					t.Errorf(`\N{%s}: decoded to U+%04X, CPython refuses it`, name, got)
				}
			} else if want := hex(val); !ok || got != want {
				t.Errorf(`\N{%s}: got U+%04X (%v), CPython U+%04X`, name, got, ok, want)
			}
		default:
			t.Fatalf("unknown line kind %q", kind)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if counts["name"] < 45000 || counts["alias"] < 400 || counts["cjk"] < 8 || counts["probe"] < 40 {
		t.Fatalf("fixture looks truncated: %v", counts)
	}
	// Every name x/text carries decodes; one CPython 3.11 lacks is a newer
	// character.
	newer := 0
	for r := rune(0); r < 0x110000; r++ {
		n := runenames.Name(r)
		if n == "" || n[0] == '<' {
			continue
		}
		if got, ok := decodeName(n); !ok || got != r {
			t.Errorf(`\N{%s}: got U+%04X (%v), want U+%04X`, n, got, ok, r)
		}
		if !named[r] {
			newer++
		}
	}
	t.Logf("x/text Unicode %s: %d named characters CPython 3.11 (Unicode 14.0) does not name", runenames.UnicodeVersion, newer)
	if newer > 5000 {
		t.Errorf("%d names unknown to CPython 3.11: the fixture and x/text disagree beyond a Unicode version step", newer)
	}
}

// TestIssue14Names: the six escapes issue 14 found refused decode.
func TestIssue14Names(t *testing.T) {
	for name, want := range map[string]rune{
		"LATIN SMALL LETTER O WITH ACUTE":        'ó',
		"CJK UNIFIED IDEOGRAPH-6771":             0x6771,
		"HANGUL SYLLABLE GA":                     0xAC00,
		"LATIN CAPITAL LETTER A WITH RING ABOVE": 'Å',
		"BEL":                                    7,
		"GRINNING FACE":                          0x1F600,
	} {
		if got, ok := decodeName(name); !ok || got != want {
			t.Errorf(`\N{%s} = U+%04X, %v; want U+%04X`, name, got, ok, want)
		}
	}
}
