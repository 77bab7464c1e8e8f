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
		"identifier": symbols().identifier, "call": symbols().call, "string": symbols().str, "comment": symbols().comment,
		"keyword_argument": symbols().keywordArgument, "as_pattern_target": symbols().asPatternTarget,
		"case_pattern": symbols().casePattern, "print_statement": symbols().printStatement,
	} {
		if id == 0 || symbols().name(id) != name {
			t.Errorf("symbol %s resolved to %d (%s)", name, id, symbols().name(id))
		}
	}
	// every id in the table resolved (0 is what a failed lookup returns)
	v := reflect.ValueOf(*symbols())
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
