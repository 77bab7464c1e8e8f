// Command parseonly is the floor `make bench` measures `nullius lint`
// against: it finds the .py files under its arguments (directory listings,
// skipping hidden, venv, node_modules, gaia-sdk and __pycache__ folders as
// lint does), reads each through the bounded reader and parses and
// flattens it with tree-sitter (pyscan.Parser.ParseTree, no model, no
// rules), on GOMAXPROCS workers fed while the walk goes on. Like `nullius
// lint` (cmd/nullius spareProc), it gives the scheduler one P more than it
// has workers unless GOMAXPROCS is set and, unless -yield=false, yields
// before each parse (pyparse.ParseWith), so sysmon leaves the parses (cgo
// calls) alone: the floor is measured with the same scheduling as lint.
// Yielding makes this program faster on small files and can make it
// slower on large ones, so lintbench measures both ways and takes the
// faster as the floor. It prints the files, bytes and nodes it saw.
//
//	go run ./internal/benchcorpus/cmd/parseonly .bench/small-1000
//	go run ./internal/benchcorpus/cmd/parseonly -yield=false .bench/small-1000
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pyscan"
)

func main() {
	yield := flag.Bool("yield", true, "yield to the scheduler before each parse, as lint does")
	flag.Parse()
	paths := make(chan string, 64)
	var files, bytes, nodes atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(workers + 1)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := pyscan.NewParser()
			defer p.Close()
			for path := range paths {
				if *yield {
					runtime.Gosched() // as lint does before each parse (pyparse.ParseWith)
				}
				src, err := readlimit.ReadFile(path, readlimit.Python)
				if err != nil {
					fmt.Fprintln(os.Stderr, "parseonly:", err)
					os.Exit(2)
				}
				n, err := p.ParseTree(src)
				if err != nil {
					fmt.Fprintln(os.Stderr, "parseonly:", path, err)
					os.Exit(2)
				}
				files.Add(1)
				bytes.Add(int64(len(src)))
				nodes.Add(int64(n))
			}
		}()
	}
	for _, root := range flag.Args() {
		if err := walk(root, paths); err != nil {
			fmt.Fprintln(os.Stderr, "parseonly:", err)
			os.Exit(2)
		}
	}
	close(paths)
	wg.Wait()
	fmt.Printf("%d files, %d bytes, %d nodes\n", files.Load(), bytes.Load(), nodes.Load())
}

func walk(dir string, out chan<- string) error {
	es, err := readlimit.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range es {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case e.IsDir():
			if strings.HasPrefix(name, ".") || name == "venv" || name == "node_modules" || name == "gaia-sdk" || name == "__pycache__" {
				continue
			}
			if err := walk(p, out); err != nil {
				return err
			}
		case e.Type()&fs.ModeType == 0 && strings.HasSuffix(name, ".py"):
			out <- p
		}
	}
	return nil
}
