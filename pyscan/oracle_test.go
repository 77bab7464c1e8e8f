package pyscan

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// oracleScript evaluates each token with CPython and reports the value as
// hex bytes (strings UTF-8 encoded, lone surrogates as U+FFFD like pyscan)
// or a float's repr, or an error.
const oracleScript = `
import json, sys, warnings
warnings.simplefilter("ignore")
out = []
for tok in json.load(sys.stdin):
    try:
        v = eval(tok, {})
    except (SyntaxError, ValueError) as e:
        out.append({"ok": False}); continue
    if isinstance(v, bytes):
        out.append({"ok": True, "hex": v.hex()})
    elif isinstance(v, str):
        v = "".join("\ufffd" if 0xd800 <= ord(c) <= 0xdfff else c for c in v)
        out.append({"ok": True, "hex": v.encode("utf-8").hex()})
    elif isinstance(v, complex):
        out.append({"ok": True, "num": repr(v.imag)})
    else:
        out.append({"ok": True, "num": repr(float(v))})
json.dump(out, sys.stdout)
`

type oracleResult struct {
	OK  bool   `json:"ok"`
	Hex string `json:"hex"`
	Num string `json:"num"`
}

func runOracle(t *testing.T, toks []string) []oracleResult {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH: CPython oracle skipped")
	}
	in, _ := json.Marshal(toks)
	cmd := exec.Command(py, "-c", oracleScript)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("python3 failed: %v", err)
	}
	var res []oracleResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(toks) {
		t.Fatalf("oracle output: %v (%d results for %d tokens)", err, len(res), len(toks))
	}
	return res
}

// TestStringsAgainstCPython decodes random escape-heavy string tokens with
// pyscan and with CPython and compares the values.
func TestStringsAgainstCPython(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", " ", `\n`, `\t`, `\\`, `\'`, `\"`, `\a`, `\b`, `\f`, `\v`, `\r`, `\0`,
		`\1`, `\12`, `\123`, `\777`, `\8`, `\x41`, `\xff`, `\x4`, `\u00e9`, `\u12`, `\U0001F600`,
		`\U00110000`, `\N{EM DASH}`, `\N{bullet}`, `\N{DIGIT FIVE}`, `\q`, `\d`, "\\\n", "{", "}", "{{", "}}", `\ud800`}
	prefixes := []string{"", "r", "u", "b", "br", "Rb", "B", "U", "R"}
	var toks []string
	for range 3000 {
		var sb strings.Builder
		for range 1 + r.IntN(6) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		body := sb.String()
		q := `"`
		if r.IntN(3) == 0 {
			q = `"""`
		}
		if strings.HasSuffix(body, `\`) && !strings.HasSuffix(body, `\\`) {
			continue
		}
		toks = append(toks, prefixes[r.IntN(len(prefixes))]+q+body+q)
	}
	res := runOracle(t, toks)
	for i, tok := range toks {
		if strings.Contains(tok, "\\\"\"\"\"") || strings.HasSuffix(strings.TrimRight(tok, `"`), `\`) {
			continue // an escaped quote that closes differently: not a single token
		}
		got, msg := decodeStringToken(tok, true)
		if (msg == "") != res[i].OK {
			if !res[i].OK && strings.Contains(tok, `"`+`"`) {
				continue // CPython tokenized it differently (adjacent quotes)
			}
			t.Errorf("%s: pyscan error %q, CPython ok=%v", tok, msg, res[i].OK)
			continue
		}
		if msg == "" && hex.EncodeToString([]byte(got.value)) != res[i].Hex {
			t.Errorf("%s: pyscan %q, CPython %s", tok, got.value, res[i].Hex)
		}
	}
}

// TestNumbersAgainstCPython compares numeric decoding with CPython.
func TestNumbersAgainstCPython(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	digits := func(n int, alphabet string) string {
		var sb strings.Builder
		for range n {
			sb.WriteByte(alphabet[r.IntN(len(alphabet))])
			if r.IntN(6) == 0 {
				sb.WriteByte('_')
			}
		}
		return strings.TrimSuffix(sb.String(), "_")
	}
	toks := []string{"0.90", "9e-1", "0.9_0", ".09", "0.9000000000000000001", "1_000", "0x1F", "1j",
		"9007199254740993", "123456789012345678901234567890", "1e400", "1e-400", "0.1e1_0", "00", "0_0"}
	for range 2000 {
		var tok string
		switch r.IntN(6) {
		case 0:
			tok = digits(1+r.IntN(25), "0123456789")
			tok = strings.TrimLeft(tok, "0_")
			if tok == "" {
				tok = "0"
			}
		case 1:
			tok = "0x" + digits(1+r.IntN(20), "0123456789abcdefABCDEF")
		case 2:
			tok = "0o" + digits(1+r.IntN(20), "01234567")
		case 3:
			tok = "0b" + digits(1+r.IntN(70), "01")
		case 4:
			tok = digits(1+r.IntN(20), "0123456789") + "." + digits(r.IntN(20), "0123456789")
		default:
			tok = "." + digits(1+r.IntN(20), "0123456789") + "e" + strconv.Itoa(r.IntN(700)-350)
		}
		if r.IntN(10) == 0 && !strings.HasPrefix(tok, "0x") && !strings.HasPrefix(tok, "0o") && !strings.HasPrefix(tok, "0b") {
			tok += "j"
		}
		toks = append(toks, tok)
	}
	res := runOracle(t, toks)
	for i, tok := range toks {
		n, msg := decodeNumber(tok)
		if (msg == "") != res[i].OK {
			t.Errorf("%s: pyscan error %q, CPython ok=%v", tok, msg, res[i].OK)
			continue
		}
		if msg != "" {
			continue
		}
		want, err := strconv.ParseFloat(strings.TrimSuffix(res[i].Num, ""), 64)
		if res[i].Num == "inf" {
			want, err = math.Inf(1), nil
		}
		if err != nil || n.val != want {
			t.Errorf("%s: pyscan %v, CPython %s", tok, n.val, res[i].Num)
		}
	}
}

// callsScript prints, for each file, one line per call as CPython's ast
// sees it: line, column, dotted callee, keyword names, positional count.
const callsScript = `
import ast, sys, warnings
warnings.simplefilter("ignore")
def dotted(n):
    if isinstance(n, ast.Name): return n.id
    if isinstance(n, ast.Attribute):
        r = dotted(n.value)
        return r + "." + n.attr if r else ""
    return ""
for path in sys.argv[1:]:
    tree = ast.parse(open(path, "rb").read())
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            kws = [k.arg for k in n.keywords if k.arg] + (["**"] if any(k.arg is None for k in n.keywords) else [])
            nargs = len([a for a in n.args if not isinstance(a, ast.Starred)])
            print(f"{path}\t{n.lineno}\t{n.col_offset+1}\t{dotted(n.func) or '?'}\t{','.join(kws)}\t{nargs}")
`

// TestCallsAgainstCPython compares the calls pyscan extracts from CPython's
// own standard library (callee, keyword names, positional count, position)
// with what CPython's ast gives.
func TestCallsAgainstCPython(t *testing.T) {
	if testing.Short() {
		t.Skip("CPython call oracle skipped in -short mode")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH")
	}
	out, err := exec.Command(py, "-c", "import json, os; print(os.path.dirname(json.__file__))").Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	lib := filepath.Dir(strings.TrimSpace(string(out)))
	var files []string
	for _, pkg := range []string{"json", "email", "asyncio", "unittest", "importlib", "re", "dataclasses.py", "typing.py", "argparse.py"} {
		more, _ := filepath.Glob(filepath.Join(lib, pkg, "*.py"))
		if strings.HasSuffix(pkg, ".py") {
			more = []string{filepath.Join(lib, pkg)}
		}
		files = append(files, more...)
	}
	if len(files) < 5 {
		t.Skip("CPython's standard library sources not found")
	}
	want, err := exec.Command(py, append([]string{"-c", callsScript}, files...)...).Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	p := NewParser()
	defer p.Close()
	var got []string
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Syntax) > 0 {
			t.Errorf("%s: %v", path, m.Syntax[0])
		}
		for _, c := range m.Calls {
			var kws []string
			for _, k := range c.Keywords {
				kws = append(kws, k.Name)
			}
			if c.KwSplat {
				kws = append(kws, "**")
			}
			callee := c.Func.DottedName()
			if callee == "" {
				callee = "?"
			}
			got = append(got, fmt.Sprintf("%s\t%d\t%d\t%s\t%s\t%d", path, c.Span.Start.Line, c.Span.Start.Col, callee, strings.Join(kws, ","), len(c.Args)))
		}
	}
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
	sort.Strings(got)
	sort.Strings(wantLines)
	if len(got) != len(wantLines) {
		t.Errorf("%d calls, CPython finds %d", len(got), len(wantLines))
	}
	for i := range min(len(got), len(wantLines)) {
		if got[i] != wantLines[i] {
			t.Fatalf("first difference:\npyscan:  %s\ncpython: %s", got[i], wantLines[i])
		}
	}
	t.Logf("%d files, %d calls identical", len(files), len(got))
}
