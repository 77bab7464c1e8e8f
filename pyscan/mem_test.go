package pyscan

import (
	"bufio"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

// vmRSS returns the resident set size in bytes (Linux), or 0.
func vmRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func heapInuse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestNoLeakOver50Parses parses the same ~0.25 MB file 50 times and checks that
// the Go heap and the RSS stay flat. A leaked C tree costs ~30 bytes per
// source byte per parse (~380 MB here), so generous bounds still catch it.
func TestNoLeakOver50Parses(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test skipped in -short mode")
	}
	var src []byte
	for _, f := range benchcorpus.Sources(256 << 10) {
		src = append(src, f.Data...)
		src = append(src, '\n')
	}
	p := NewParser()
	defer p.Close()
	parse := func() {
		m, err := p.Parse("big.py", src)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Syntax) > 0 {
			t.Fatalf("corpus does not parse: %v", m.Syntax[0])
		}
	}
	for range 3 { // warm up: buffers, allocator arenas
		parse()
	}
	heap0, rss0 := heapInuse(), vmRSS()
	for range 50 {
		parse()
	}
	heap1, rss1 := heapInuse(), vmRSS()
	t.Logf("heap %d -> %d KiB, rss %d -> %d KiB", heap0>>10, heap1>>10, rss0>>10, rss1>>10)
	if heap1 > heap0+32<<20 {
		t.Errorf("Go heap grew from %d to %d KiB over 50 parses", heap0>>10, heap1>>10)
	}
	if rss0 != 0 && rss1 > rss0+128<<20 {
		t.Errorf("RSS grew from %d to %d KiB over 50 parses", rss0>>10, rss1>>10)
	}
}

func TestCloseIdempotent(t *testing.T) {
	p := NewParser()
	if _, err := p.Parse("a.py", []byte("x = 1\n")); err != nil {
		t.Fatal(err)
	}
	p.Close()
	p.Close()
	if _, err := p.Parse("a.py", []byte("x = 1\n")); err == nil {
		t.Error("Parse after Close succeeded")
	}
	q := NewParser()
	q.Close() // never used: nothing to free
	q.Close()
}

func TestParserReuse(t *testing.T) {
	p := NewParser()
	defer p.Close()
	a, _ := p.Parse("a.py", []byte("infer(x=1)\n"))
	b, _ := p.Parse("b.py", []byte("observe(y=2)\nz()\n"))
	if a.Calls[0].Func.Name != "infer" || len(a.Calls) != 1 || b.Calls[0].Func.Name != "observe" || len(b.Calls) != 2 {
		t.Error("a reused parser mixed up models")
	}
}

func TestSymbolsResolved(t *testing.T) {
	for name, id := range map[string]uint16{
		"identifier": symbols.Get().identifier, "call": symbols.Get().call, "string": symbols.Get().str, "comment": symbols.Get().comment,
		"keyword_argument": symbols.Get().keywordArgument, "as_pattern_target": symbols.Get().asPatternTarget,
		"case_pattern": symbols.Get().casePattern, "print_statement": symbols.Get().printStatement,
	} {
		if id == 0 || symbols.Get().name(id) != name {
			t.Errorf("symbol %s resolved to %d (%s)", name, id, symbols.Get().name(id))
		}
	}
	// every id in the table resolved (0 is what a failed lookup returns)
	v := reflect.ValueOf(*symbols.Get())
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Uint16 && f.Uint() == 0 {
			t.Errorf("symtab.%s did not resolve", v.Type().Field(i).Name)
		}
	}
}

// TestConcurrentParsers runs one Parser per goroutine over the same files
// and checks every goroutine builds the same model as a sequential run.
func TestConcurrentParsers(t *testing.T) {
	files := benchcorpus.Sources(256 << 10)
	summary := func(p *Parser) []int {
		var out []int
		for _, f := range files {
			m, err := p.Parse(f.Path, f.Data)
			if err != nil {
				t.Error(err)
				return nil
			}
			out = append(out, len(m.Calls), len(m.Names), len(m.Attrs), len(m.Syntax))
		}
		return out
	}
	p := NewParser()
	want := summary(p)
	p.Close()
	results := make([][]int, 4)
	var wg sync.WaitGroup
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := NewParser()
			defer q.Close()
			results[g] = summary(q)
		}()
	}
	wg.Wait()
	for g, r := range results {
		if !slices.Equal(r, want) {
			t.Errorf("goroutine %d built different models", g)
		}
	}
}

// TestModelBytesProportionalToInput checks that the model's allocations
// stay within a fixed multiple of the source on shapes that stress the
// chunk sizing of the slabs: a value built before the expression holding
// it (a walrus at the top of a module), a module of nothing but names, one
// of nothing but strings, many tiny statements. Dense code takes ~120
// bytes per source byte (`x = 1` is 6 bytes and an assignment, two
// expressions, a name reference and a binding); a chunk sized from a wrong
// estimate shows as far more.
func TestModelBytesProportionalToInput(t *testing.T) {
	big := func(prefix, item, suffix string, n int) []byte {
		return []byte(prefix + strings.Repeat(item, n) + suffix)
	}
	cases := map[string][]byte{
		"walrus first":  big("(x := [", "1, ", "])\ny = x\n", 5000),
		"names":         big("a = [", "b, ", "]\n", 5000),
		"strings":       big("a = [", "'s', ", "]\n", 5000),
		"tiny stmts":    big("", "x = 1\n", "", 3000),
		"calls":         big("", "f(a, b=c)\n", "", 2000),
		"nested walrus": big("", "(a := (b := (c := 1)))\n", "", 1000),
	}
	p := NewParser()
	defer p.Close()
	for name, src := range cases {
		if _, err := p.Parse(name, src); err != nil { // warm up: the C side's buffers
			t.Fatal(err)
		}
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		m, err := p.Parse(name, src)
		runtime.ReadMemStats(&b)
		if err != nil || len(m.Syntax) > 0 {
			t.Fatalf("%s: %v %v", name, err, m.Syntax)
		}
		if perByte := float64(b.TotalAlloc-a.TotalAlloc) / float64(len(src)); perByte > 256 {
			t.Errorf("%s: the model took %.1f bytes per source byte, want at most 256", name, perByte)
		} else {
			t.Logf("%s: %.1f bytes per source byte", name, perByte)
		}
	}
}

// TestNextChunkBounded pins the sizing of later chunks of expressions: the
// rate so far predicts the rest, and nothing makes a chunk larger than the
// nodes left, even when an expression is made long after the nodes below
// it (made/i large).
func TestNextChunkBounded(t *testing.T) {
	for _, tc := range []struct{ made, i, n, want int }{
		{made: 60, i: 100, n: 200, want: 63 + 4},       // 0.6 per node: 60 more, and a little
		{made: 20001, i: 2, n: 60000, want: 59998 + 4}, // a walrus after its 20,000-element value
		{made: 5, i: 0, n: 10, want: 10 + 4},
		{made: 1, i: 10, n: 10, want: 4}, // the last node
		{made: 1, i: 12, n: 10, want: 4}, // past the end (placeholders)
	} {
		if got := nextChunk(tc.made, tc.i, tc.n); got != tc.want {
			t.Errorf("nextChunk(%d, %d, %d) = %d, want %d", tc.made, tc.i, tc.n, got, tc.want)
		}
	}
}
