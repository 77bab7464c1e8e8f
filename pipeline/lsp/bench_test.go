package lsp

import (
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// module1000 is a realistic module of about 1,000 lines: the body of the
// clean lint fixture repeated.
func module1000(b *testing.B) string {
	src, err := os.ReadFile("../../fixtures/lint/good/src/sterile_neutrino/__init__.py")
	if err != nil {
		b.Fatal(err)
	}
	return module1000x(string(src))
}

func module1000x(s string) string {
	head, body, _ := strings.Cut(s, "__all__ = [\"worth\"]\n")
	var out strings.Builder
	out.WriteString(head + "__all__ = [\"worth\"]\n")
	for strings.Count(out.String(), "\n") < 1000 {
		out.WriteString(body)
	}
	return out.String()
}

// openModule starts a server, opens src as the module of a package and
// waits for its diagnostics. It returns the client, the file, the message
// index after them, and the position of the first "0.90" likelihood,
// which the benchmarks toggle with 0.80 (off-grade, GAIA011).
func openModule(b *testing.B, src string) (*client, string, int, int, int) {
	dir, file := newPackage(b, src)
	c := start(b, Options{Log: io.Discard}, nil)
	c.initialize(dir, map[string]any{})
	from := 0
	didOpen(c, file, src, 1)
	c.diagnostics(&from, fileURI(file), version(1))
	i := strings.Index(src, "p_e_given_h=0.90")
	l, col := utf16Col(src, src[i:i+len("p_e_given_h=0.90")])
	return c, file, from, l, col + len("p_e_given_h=")
}

// BenchmarkChange measures, through the server's stdio, the time from a
// didChange of a 1,000-line module to the publishDiagnostics of that
// version (the first change after a pause is linted at once, whatever the
// debounce). Run it on one core: go test -bench Change -cpu 1. It reports
// the median wall time besides the mean, and the CPU time per change,
// which a loaded machine does not inflate.
func BenchmarkChange(b *testing.B) {
	src := module1000(b)
	c, file, from, l, col := openModule(b, src)
	var lat []time.Duration
	v := 1
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		v++
		lit := []string{"0.80", "0.90"}[v%2]
		t0 := time.Now()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": fileURI(file), "version": v},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(l, col), "end": pos(l, col+4)}, "text": lit}},
		})
		c.diagnostics(&from, fileURI(file), version(v))
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(lat)), "ms-cpu/op")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(strings.Count(src, "\n")), "lines")
	c.shutdownExit()
}

// BenchmarkEditsMemory makes 1,000 edits to a 1,000-line module and
// reports the live heap after 100 and after 1,000 edits: flat memory means
// the two are close (nothing is retained per edit).
func BenchmarkEditsMemory(b *testing.B) {
	src := module1000(b)
	for b.Loop() {
		c, file, from, l, col := openModule(b, src)
		heap := func() float64 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return float64(m.HeapAlloc) / (1 << 20)
		}
		var at100 float64
		for v := 2; v <= 1001; v++ {
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": fileURI(file), "version": v},
				"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(l, col), "end": pos(l, col+4)}, "text": []string{"0.80", "0.90"}[v%2]}},
			})
			c.diagnostics(&from, fileURI(file), version(v))
			if v == 101 {
				c.forget(from)
				at100 = heap()
			}
		}
		c.forget(from)
		b.ReportMetric(at100, "MiB-heap-after-100")
		b.ReportMetric(heap(), "MiB-heap-after-1000")
		c.shutdownExit()
	}
}

// cpuTime is the CPU time the process has used (user and system): on a
// shared machine, a steadier figure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// forget drops the messages before index n, so the test client's own
// record does not count as the server's memory.
func (c *client) forget(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.msgs[:n] {
		c.msgs[i] = message{}
	}
}
