package pyscan

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

// benchSources is the benchmark corpus: ~4 MB of generated Gaia modules.
var benchSources = sync.OnceValue(func() []benchcorpus.File { return benchcorpus.Sources(4 << 20) })

// smallSources is the many-small-packages corpus (~1,650 modules of ~2.8
// KB, 4.7 MB), where the fixed costs of each module weigh most.
var smallSources = sync.OnceValue(func() []benchcorpus.File {
	return benchcorpus.PythonOnly(benchcorpus.SmallPackages(1000))
})

func corpusBytes(fs []benchcorpus.File) int64 {
	var n int64
	for _, f := range fs {
		n += int64(len(f.Data))
	}
	return n
}

// BenchmarkParse measures parse + model building over the corpus on one
// goroutine; b.SetBytes makes `go test -bench` report MB/s.
func BenchmarkParse(b *testing.B) { benchParse(b, benchSources()) }

// BenchmarkParseSmall is BenchmarkParse over the small-packages corpus.
func BenchmarkParseSmall(b *testing.B) { benchParse(b, smallSources()) }

func benchParse(b *testing.B, fs []benchcorpus.File) {
	b.SetBytes(corpusBytes(fs))
	b.ReportAllocs()
	p := NewParser()
	defer p.Close()
	cpu0, mem0 := cpuTime(), readMem()
	for b.Loop() {
		for _, f := range fs {
			if _, err := p.Parse(f.Path, f.Data); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0, corpusBytes(fs))
	reportMem(b, mem0, corpusBytes(fs))
}

// BenchmarkBuild measures the model builder alone (everything Parse does
// after tree-sitter's flat tree is ready), over trees flattened beforehand:
// the Go work nullius adds to the parse, without the C parse's noise.
func BenchmarkBuild(b *testing.B) { benchBuild(b, benchSources()) }

// BenchmarkBuildSmall is BenchmarkBuild over the small-packages corpus.
func BenchmarkBuildSmall(b *testing.B) { benchBuild(b, smallSources()) }

func benchBuild(b *testing.B, fs []benchcorpus.File) {
	fp, err := newFlatParser()
	if err != nil {
		b.Fatal(err)
	}
	trees := make([][]node, len(fs))
	scans := make([]treeScan, len(fs))
	for k, f := range fs {
		nodes, err := fp.parse(f.Data)
		if err != nil {
			b.Fatal(err)
		}
		trees[k] = append([]node(nil), nodes...) // the flat tree is reused by the next parse
		scans[k] = fp.scanned()
		scans[k].comments = append([]uint32(nil), scans[k].comments...)
	}
	fp.close()
	b.SetBytes(corpusBytes(fs))
	b.ReportAllocs()
	cpu0, mem0 := cpuTime(), readMem()
	for b.Loop() {
		for k, f := range fs {
			var bd builder
			body := bd.start(f.Path, f.Data)
			if bd.m.Syntax != nil {
				b.Fatalf("%s: %v", f.Path, bd.m.Syntax[0])
			}
			bd.build(trees[k], body, &scans[k])
		}
	}
	reportCPU(b, cpu0, corpusBytes(fs))
	reportMem(b, mem0, corpusBytes(fs))
}

func readMem() runtime.MemStats {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms
}

// reportMem adds "B/in-byte" and "allocs/in-byte": bytes and objects the
// Go heap allocated per byte of source parsed, the figures the slabs and
// the compact model are meant to keep low.
func reportMem(b *testing.B, mem0 runtime.MemStats, perOp int64) {
	mem1 := readMem()
	in := float64(perOp) * float64(b.N)
	b.ReportMetric(float64(mem1.TotalAlloc-mem0.TotalAlloc)/in, "B/in-byte")
	b.ReportMetric(float64(mem1.Mallocs-mem0.Mallocs)/in, "allocs/in-byte")
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
