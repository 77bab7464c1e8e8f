package readlimit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/modsrc"
)

// directReads are the functions that open or read a file by name without
// the bounded reader's checks: each blocks on a FIFO, reads /dev/zero
// forever or reads any size.
var directReads = map[string][]string{
	"os":        {"ReadFile", "Open", "OpenFile", "ReadDir", "DirFS", "OpenRoot", "OpenInRoot"},
	"io/ioutil": {"ReadFile", "ReadDir"},
	// An open of a descriptor by name skips the os package altogether.
	"syscall":               {"Open", "Openat"},
	"golang.org/x/sys/unix": {"Open", "Openat", "Openat2"},
}

// allowedReads are the direct reads production code may keep, keyed by
// "<file> <enclosing function> <package>.<function>", each with why it is
// not a read of user input. Anything else must go through ReadFile or
// ReadDir. The list is exact: an entry that no longer matches a call fails
// the test too, so it stays true.
var allowedReads = map[string]string{
	"internal/readlimit/fd_linux.go open syscall.Open":                "the bounded reader and lister themselves (openRead after its stat or a listing, with O_NONBLOCK, the fstat refusing a non-regular file; ReadDir with O_DIRECTORY, a non-directory refused before it is opened)",
	"internal/readlimit/fd_other.go openRead os.OpenFile":             "the bounded reader itself off Linux, after its stat or a listing (O_NONBLOCK; the fstat refuses a non-regular file)",
	"internal/readlimit/fd_other.go ReadDir os.OpenFile":              "the bounded directory lister itself off Linux, with O_DIRECTORY (a non-directory is refused before it is opened)",
	"internal/atomicfile/atomicfile.go syncDir os.Open":               "opens the directory nullius just wrote into, to fsync it; reads nothing",
	"internal/lockfile/lockfile.go Acquire os.OpenFile":               "creates or opens nullius's own lock file read-write with O_NOFOLLOW; reads nothing",
	"internal/benchcorpus/benchcorpus.go writeNew os.OpenFile":        "creates a new benchmark corpus file (O_CREATE|O_EXCL, write-only); reads nothing",
	"internal/benchcorpus/cmd/lintbench/main.go loadavg os.ReadFile":  "make bench's harness (not in the nullius binary) reading /proc/loadavg to print the machine's load",
	"internal/benchcorpus/cmd/lintbench/main.go cpuModel os.ReadFile": "make bench's harness (not in the nullius binary) reading /proc/cpuinfo to name the machine",
	"internal/benchcorpus/cmd/lintbench/main.go copyFile os.ReadFile": "make bench's harness (not in the nullius binary) copying the binaries it just built, to time their start",
	"internal/benchcorpus/cmd/lintbench/main.go evict os.Open":        "make bench's harness (not in the nullius binary) opening its own copy of a binary to fsync it and drop it from the page cache; reads nothing",

	"internal/fakes/gaia.go gaiaRun os.OpenFile":        "the stand-in gaia of tests and nullius demo, appending to the call log its caller named",
	"internal/fakes/ideastore.go ideaStore os.OpenFile": "the stand-in idea store of tests and nullius demo, appending to the request log its caller named",
	"internal/fakes/ideastore.go save os.OpenFile":      "the stand-in idea store appending one line to the engine's nodes_log.jsonl (written, never read)",

	"internal/procrun/procruntest/procruntest.go WaitPids os.ReadFile": "a test helper package (imported only by tests), reading the pid files its stubs write",
	"internal/procrun/procruntest/procruntest.go state os.ReadFile":    "a test helper package (imported only by tests), reading /proc/<pid>/stat",

	"analyzers/internal/ruletest/ruletest.go checkFixes os.ReadFile":   "a test helper package (imported only by tests), reading fixtures and goldens",
	"analyzers/internal/ruletest/ruletest.go expectations os.ReadFile": "a test helper package (imported only by tests), reading fixtures",
	"internal/golden/golden.go Check os.ReadFile":                      "a test helper package (imported only by tests), reading the golden file a test compares with",

	"internal/third_party/jsonschema/loader.go Load os.Open": "the JSON Schema library's FileLoader for file:// schema URLs; nullius compiles only its embedded schemas and never registers it",
}

// TestDirectReadsAreListed scans every non-test .go file of the module for
// direct os reads and fails on one that is not in allowedReads: a new
// os.ReadFile of user input cannot slip in without a reason written here.
func TestDirectReadsAreListed(t *testing.T) {
	root := modsrc.Root(t)
	found := map[string][]string{}
	for _, rel := range modsrc.GoFiles(t, root) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		calls, err := scanDirectReads(rel, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			found[c.key] = append(found[c.key], c.pos)
		}
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, ok := allowedReads[k]; !ok {
			t.Errorf("%s: direct read %q of a file by name; read user input with readlimit.ReadFile/ReadDir (regular files only, capped), or add it to allowedReads with the reason it is not user input", strings.Join(found[k], ", "), k)
		}
	}
	for k := range allowedReads {
		if _, ok := found[k]; !ok {
			t.Errorf("allowedReads lists %q, which no longer exists; remove the entry", k)
		}
	}
}

// testOnly are the packages made for tests only: no production file may
// import them. For those allowedReads excuses as test helpers, their
// reads would be user input after all; modsrc walks the module's source
// and testrace knows how the test binary was built. internal/fakes is not one: it ships in the binary as the
// programs of 'nullius demo', reads its inputs through the bounded reader,
// and its entries above only append to logs.
var testOnly = []string{"analyzers/internal/ruletest", "internal/procrun/procruntest", "internal/golden", "internal/modsrc", "internal/testrace"}

// TestTestHelpersStayOutOfTheBinary checks that claim.
func TestTestHelpersStayOutOfTheBinary(t *testing.T) {
	root := modsrc.Root(t)
	mod := modulePath(t, root)
	for _, rel := range modsrc.GoFiles(t, root) {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, filepath.FromSlash(rel)), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, pkg := range testOnly {
				if path == mod+"/"+pkg && !slices.Contains(testOnly, filepath.ToSlash(filepath.Dir(rel))) {
					t.Errorf("%s imports the test-only package %s", rel, pkg)
				}
			}
		}
	}
}

// modulePath is the module line of go.mod.
func modulePath(t *testing.T, root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(line, "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("no module line in go.mod")
	return ""
}

type directRead struct{ key, pos string }

// scanDirectReads finds the references (calls or function values) to a
// directReads function in one file, with the function that holds each.
func scanDirectReads(name string, src []byte) ([]directRead, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	local := map[string]string{} // local import name -> import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := directReads[path]; !ok {
			continue
		}
		n := filepath.Base(path)
		if imp.Name != nil {
			n = imp.Name.Name
		}
		local[n] = path
	}
	if len(local) == 0 {
		return nil, nil
	}
	var out []directRead
	for _, decl := range f.Decls {
		holder := "(package level)"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			holder = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			path, ok := local[id.Name]
			if !ok || !slices.Contains(directReads[path], sel.Sel.Name) {
				return true
			}
			out = append(out, directRead{
				key: fmt.Sprintf("%s %s %s.%s", name, holder, filepath.Base(path), sel.Sel.Name),
				pos: fset.Position(sel.Pos()).String(),
			})
			return true
		})
	}
	return out, nil
}

// The scanner itself: it must see a call, a function value, a renamed
// import and ioutil, and nothing else.
func TestScanDirectReads(t *testing.T) {
	src := `package p

import (
	"io/ioutil"
	xos "os"
)

var read = xos.ReadFile

func load(p string) ([]byte, error) {
	if _, err := xos.Stat(p); err != nil {
		return nil, err
	}
	f, _ := xos.Open(p)
	defer f.Close()
	return ioutil.ReadFile(p)
}

func (s *store) list(p string) { xos.ReadDir(p) }
`
	got, err := scanDirectReads("p/p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, c := range got {
		keys = append(keys, c.key)
	}
	want := []string{
		"p/p.go (package level) os.ReadFile",
		"p/p.go load os.Open",
		"p/p.go load ioutil.ReadFile",
		"p/p.go list os.ReadDir",
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("got %q\nwant %q", keys, want)
	}
}
