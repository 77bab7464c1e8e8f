package pyscan

import (
	"sync"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

// benchSources is the benchmark corpus: ~4 MB of generated Gaia modules.
var benchSources = sync.OnceValue(func() []benchcorpus.File { return benchcorpus.Sources(4 << 20) })

func corpusBytes(fs []benchcorpus.File) int64 {
	var n int64
	for _, f := range fs {
		n += int64(len(f.Data))
	}
	return n
}

// BenchmarkParse measures parse + model building over the corpus on one
// goroutine; b.SetBytes makes `go test -bench` report MB/s.
func BenchmarkParse(b *testing.B) {
	fs := benchSources()
	b.SetBytes(corpusBytes(fs))
	b.ReportAllocs()
	p := NewParser()
	defer p.Close()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, f := range fs {
			if _, err := p.Parse(f.Path, f.Data); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0, corpusBytes(fs))
}

// reportCPU adds an "MB/cpu-s" metric: bytes parsed per second of process
// CPU time (GC included), which other jobs on the machine do not dilute.
func reportCPU(b *testing.B, cpu0 time.Duration, perOp int64) {
	if d := cpuTime() - cpu0; d > 0 {
		b.ReportMetric(float64(perOp)*float64(b.N)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkParseParallel runs one Parser per goroutine (GOMAXPROCS of them).
func BenchmarkParseParallel(b *testing.B) {
	fs := benchSources()
	b.SetBytes(corpusBytes(fs))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		p := NewParser()
		defer p.Close()
		for pb.Next() {
			for _, f := range fs {
				if _, err := p.Parse(f.Path, f.Data); err != nil {
					b.Error(err)
					return
				}
			}
		}
	})
}

// BenchmarkFlatOnly measures tree-sitter parsing plus the C flattening alone,
// to show what the model builder adds.
func BenchmarkFlatOnly(b *testing.B) {
	fs := benchSources()
	b.SetBytes(corpusBytes(fs))
	fp, err := newFlatParser()
	if err != nil {
		b.Fatal(err)
	}
	defer fp.close()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, f := range fs {
			if _, err := fp.parse(f.Data); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0, corpusBytes(fs))
}
