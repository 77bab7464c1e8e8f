// Command lintbench is make bench's lint part (issue 15). It prints, side
// by side for the large-file corpus and the many-small-packages corpus:
//
//   - parse-only throughput (cmd/parseonly: the walk, the reads and
//     tree-sitter's parse and flatten, nothing of nullius's own) and
//     `nullius lint --format json` throughput on all cores, their ratio
//     (medians of interleaved runs: the two are measured alternately so a
//     noisy neighbour hits both alike), and CPU seconds of each;
//   - lint on one core and the two-core speed-up, and the parse-only
//     floor's own two-core speed-up (what lint's is bounded by);
//   - allocations per input byte (in-process: analyzers.Lint, MemStats
//     deltas) and the peak RSS of the lint runs;
//
// and, for process start: an empty cgo binary, `nullius version`, and a
// one-package `nullius lint`, with their ratios to the empty binary.
//
// Timings are measurements, never assertions; the machine's load when they
// were taken is printed with them.
//
//	go run ./internal/benchcorpus/cmd/lintbench -bin .bench -runs 21
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

func main() {
	bin := flag.String("bin", ".bench", "directory holding nullius, parseonly and emptycgo, and the corpora")
	runs := flag.Int("runs", 21, "interleaved runs per throughput figure")
	nstarts := flag.Int("starts", 200, "interleaved runs per process-start figure")
	mb := flag.Int("mb", 12, "size of the large-file corpus in MB")
	small := flag.Int("small", 1000, "packages in the small-packages corpus")
	pkg := flag.String("pkg", "fixtures/lint/good", "the package of the one-package latency")
	throughput := flag.Bool("throughput", true, "measure the corpora (false: process start only)")
	flag.Parse()

	corpora := []struct{ name, dir string }{
		{fmt.Sprintf("large files (%d MB)", *mb), filepath.Join(*bin, fmt.Sprintf("corpus-%dmb", *mb))},
		{fmt.Sprintf("small packages (%d)", *small), filepath.Join(*bin, fmt.Sprintf("small-%d", *small))},
	}
	if !*throughput {
		corpora = nil
	}
	for i, c := range corpora {
		if _, err := os.Stat(c.dir); err == nil {
			continue
		}
		files := benchcorpus.Files(*mb << 20)
		if i == 1 {
			files = benchcorpus.SmallPackages(*small)
		}
		if err := benchcorpus.Write(c.dir, files); err != nil {
			fail(err)
		}
	}
	nullius, parseonly, empty := filepath.Join(*bin, "nullius"), filepath.Join(*bin, "parseonly"), filepath.Join(*bin, "emptycgo")
	fmt.Printf("machine: %d CPUs (GOMAXPROCS %d), %s; load average before: %s\n\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), cpuModel(), loadavg())

	if len(corpora) > 0 {
		fmt.Printf("%-24s %10s %10s %10s %7s %9s %9s %8s %9s %9s\n", "corpus", "MB", "parse MB/s", "lint MB/s", "ratio", "1-core", "speed-up", "allocs/B", "bytes/B", "peak RSS")
	}
	for _, c := range corpora {
		bytes := pyBytes(c.dir)
		mbytes := float64(bytes) / 1e6
		parse, parseNY, parse1, lint, lint1 := []run{}, []run{}, []run{}, []run{}, []run{}
		for range *runs {
			parse = append(parse, measure(nil, parseonly, c.dir))
			lint = append(lint, measure(nil, nullius, "lint", "--format", "json", c.dir))
			// The floor without lint's yield before each parse: faster on
			// some corpora, slower on others (see parseonly); the faster
			// of the two is the floor.
			parseNY = append(parseNY, measure(nil, parseonly, "-yield=false", c.dir))
			lint1 = append(lint1, measure([]string{"GOMAXPROCS=1"}, nullius, "lint", "--workers", "1", "--format", "json", c.dir))
			// The floor on one core too: the two-core speed-up lint can
			// reach is bounded by how well the parse itself scales here.
			parse1 = append(parse1, measure([]string{"GOMAXPROCS=1"}, parseonly, c.dir))
		}
		floor := "yielding before each parse"
		yw, nyw := median(parse, wall), median(parseNY, wall)
		if nyw < yw {
			parse, floor = parseNY, "not yielding"
		}
		pw, lw, l1, p1 := median(parse, wall), median(lint, wall), median(lint1, wall), median(parse1, wall)
		allocs, allocBytes := inProcess(c.dir, bytes)
		fmt.Printf("%-24s %10.2f %10.1f %10.1f %7.2f %9.1f %8.2fx %8.3f %9.1f %7.0f MB\n",
			c.name, mbytes, mbytes/pw, mbytes/lw, lw/pw, mbytes/l1, l1/lw, allocs, allocBytes, maxOf(lint, rss)/1024)
		fmt.Printf("%-24s %10s cpu: parse %.3f s, lint %.3f s (ratio %.2f); wall medians: parse %.3f s, lint %.3f s, lint on one core %.3f s\n",
			"", "", median(parse, cpu), median(lint, cpu), median(lint, cpu)/median(parse, cpu), pw, lw, l1)
		fmt.Printf("%-24s %10s the floor: parse only yielding before each parse %.3f s, not yielding %.3f s; the faster (%s) is the floor\n", "", "", yw, nyw, floor)
		fmt.Printf("%-24s %10s parse only on one core %.3f s: the floor's own two-core speed-up %.2fx\n", "", "", p1, p1/pw)
		fmt.Printf("%-24s %10s context switches (medians): parse %.0f, lint %.0f\n", "", "", median(parse, csw), median(lint, csw))
		q1, q2, q3 := quartiles(pairRatios(lint, parse))
		fmt.Printf("%-24s %10s lint ÷ parse-only of each interleaved pair: median %.2f, quartiles %.2f–%.2f (the machine's own spread)\n", "", "", q2, q1, q3)
	}

	// Process start depends on the page cache as well as on the binary: on
	// this machine a binary just written (what go build and go install
	// leave) starts faster than the same bytes read back from disk (after
	// a reboot, or once evicted), and the big binary more so than the
	// small empty one. Both states are measured, on fresh copies of the
	// two binaries: as written, then with their cached pages dropped
	// (fsync + POSIX_FADV_DONTNEED, no root needed) so that the first run
	// reads them back from disk.
	dir, err := os.MkdirTemp(*bin, "start-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	emptyC, nulliusC := filepath.Join(dir, "emptycgo"), filepath.Join(dir, "nullius")
	for _, c := range [][2]string{{empty, emptyC}, {nullius, nulliusC}} {
		if err := copyFile(c[0], c[1]); err != nil {
			fail(err)
		}
	}
	starts(emptyC, nulliusC, *pkg, *nstarts, "as written")
	for _, f := range []string{emptyC, nulliusC} {
		if err := evict(f); err != nil {
			fail(err)
		}
	}
	starts(emptyC, nulliusC, *pkg, *nstarts, "read back from disk")
	fmt.Printf("\nload average after: %s\n", loadavg())
}

// starts measures, interleaved, the empty cgo binary, `nullius version`
// and a one-package `nullius lint`, and prints their ratios to the empty
// binary.
func starts(empty, nullius, pkg string, n int, state string) {
	fmt.Printf("\n%-44s %10s %10s %8s\n", "process start, binaries "+state, "median", "min", "ratio")
	var e, v, l []run
	for range n {
		e = append(e, measure(nil, empty))
		v = append(v, measure(nil, nullius, "version"))
		l = append(l, measure(nil, nullius, "lint", pkg))
	}
	base := median(e, wall)
	for _, r := range []struct {
		name string
		runs []run
	}{{"empty cgo binary", e}, {"nullius version", v}, {"nullius lint " + pkg, l}} {
		fmt.Printf("%-44s %8.2f ms %8.2f ms %7.2fx\n", r.name, median(r.runs, wall)*1e3, minOf(r.runs, wall)*1e3, median(r.runs, wall)/base)
	}
	for _, r := range []struct {
		name string
		runs []run
	}{{"nullius version", v}, {"one-package lint", l}} {
		q1, q2, q3 := quartiles(pairRatios(r.runs, e))
		fmt.Printf("%-44s median %.2f, quartiles %.2f–%.2f\n", r.name+" ÷ empty of each pair", q2, q1, q3)
	}
}

// copyFile writes a fresh executable copy of src at dst.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// evict writes path's pages to disk and drops them from the page cache,
// so that the next exec reads the file back from disk.
func evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return err
	}
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

type run struct{ wall, cpu, rss, csw float64 } // seconds, seconds, KB, context switches

func wall(r run) float64 { return r.wall }
func cpu(r run) float64  { return r.cpu }
func rss(r run) float64  { return r.rss }
func csw(r run) float64  { return r.csw }

// measure runs one command to completion (its exit status is not judged:
// lint exits 1 on the small corpus's findings) and returns its wall time,
// CPU time, peak RSS and context switches.
func measure(env []string, name string, args ...string) run {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	t0 := time.Now()
	err := cmd.Run()
	w := time.Since(t0).Seconds()
	if cmd.ProcessState == nil {
		fail(fmt.Errorf("%s: %v", name, err))
	}
	if code := cmd.ProcessState.ExitCode(); code > 1 {
		fail(fmt.Errorf("%s %s: exit %d", name, strings.Join(args, " "), code))
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	c := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return run{wall: w, cpu: c, rss: float64(ru.Maxrss), csw: float64(ru.Nvcsw + ru.Nivcsw)}
}

func median(rs []run, f func(run) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// pairRatios divides each run of a by the run of b taken beside it (the
// runs are interleaved), so a slow moment of the machine hits both.
func pairRatios(a, b []run) []float64 {
	r := make([]float64, min(len(a), len(b)))
	for i := range r {
		r[i] = a[i].wall / b[i].wall
	}
	return r
}

// quartiles returns the lower quartile, the median and the upper quartile
// of v (nearest rank).
func quartiles(v []float64) (float64, float64, float64) {
	v = slices.Clone(v)
	slices.Sort(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))))] }
	return at(0.25), at(0.5), at(0.75)
}

func minOf(rs []run, f func(run) float64) float64 {
	m := f(rs[0])
	for _, r := range rs {
		m = min(m, f(r))
	}
	return m
}

func maxOf(rs []run, f func(run) float64) float64 {
	m := f(rs[0])
	for _, r := range rs {
		m = max(m, f(r))
	}
	return m
}

// inProcess lints dir once in this process, after a warm-up, and returns
// the allocations and the bytes allocated per input byte.
func inProcess(dir string, bytes int64) (float64, float64) {
	debug.SetGCPercent(400) // what nullius lint runs with
	lint := func() {
		if _, err := analyzers.Lint([]string{dir}, analyzers.Options{NoIR: true}); err != nil {
			fail(err)
		}
	}
	lint()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	lint()
	runtime.ReadMemStats(&b)
	return float64(b.Mallocs-a.Mallocs) / float64(bytes), float64(b.TotalAlloc-a.TotalAlloc) / float64(bytes)
}

func pyBytes(dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		fail(err)
	}
	return n
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lintbench:", err)
	os.Exit(2)
}
