package binding

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/lockfile"
)

func pkg(t *testing.T, pyproject string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(Path(dir), []byte(pyproject), 0o640); err != nil {
		t.Fatal(err)
	}
	return dir
}

const project = "[project]\nname = \"x-gaia\"\nversion = \"0.1.0\"\n"

func TestRead(t *testing.T) {
	cases := []struct {
		name, file string
		want       Binding
		bound      bool
		err        string // substring of the error; "" for none
		line       int
	}{
		{name: "no table", file: project},
		{name: "empty file", file: " "},
		{name: "other tool", file: project + "[tool.ruff]\nline-length = 100\n"},
		{name: "config only", file: project + "[tool.nullius]\nignore = [\"GAIA901\"]\n"},
		{name: "both", file: project + "[tool.nullius]\ncampaign-id = \"cmp00001\"\nnode-id = \"nd000001\"\n",
			want: Binding{"cmp00001", "nd000001"}, bound: true},
		{name: "literal strings", file: "[tool.nullius]\ncampaign-id = 'a\\b'\nnode-id = '''n'''\n",
			want: Binding{`a\b`, "n"}, bound: true},
		{name: "half: campaign only", file: "[tool.nullius]\ncampaign-id = \"cmp00001\"\n", want: Binding{CampaignID: "cmp00001"}},
		{name: "half: node only", file: "[tool.nullius]\nnode-id = \"nd000001\"\n", want: Binding{NodeID: "nd000001"}},
		{name: "dotted under tool", file: "[tool]\nnullius.campaign-id = \"c\"\nnullius.node-id = \"n\"\n",
			want: Binding{"c", "n"}, bound: true},
		{name: "dotted at root", file: "tool.nullius.campaign-id = \"c\"\ntool.nullius.node-id = \"n\"\n",
			want: Binding{"c", "n"}, bound: true},
		{name: "inline", file: "[tool]\nnullius = { campaign-id = \"c\", node-id = \"n\" }\n",
			want: Binding{"c", "n"}, bound: true},
		{name: "escapes", file: "[tool.nullius]\ncampaign-id = \"a\\\"b\\u00e9\"\nnode-id = \"x\\ny\"\n",
			want: Binding{"a\"bé", "x\ny"}, bound: true},
		{name: "integer", file: project + "[tool.nullius]\ncampaign-id = \"c\"\nnode-id = 5\n",
			err: "node-id must be a string", line: 6},
		{name: "array", file: "[tool.nullius]\ncampaign-id = [\"c\"]\n", err: "campaign-id must be a string", line: 2},
		{name: "empty", file: "[tool.nullius]\ncampaign-id = \"\"\nnode-id = \"n\"\n", err: "campaign-id must not be empty", line: 2},
		{name: "blank", file: "[tool.nullius]\ncampaign-id = \"c\"\nnode-id = \"  \"\n", err: "node-id must not be empty", line: 3},
		{name: "padded", file: "[tool.nullius]\ncampaign-id = \" c\"\nnode-id = \"n\"\n", err: "leading or trailing blanks", line: 2},
		{name: "not a table", file: "[tool]\nnullius = 5\n", err: "[tool.nullius] must be a table", line: 2},
		{name: "inline member", file: "[tool]\nnullius = { campaign-id = 1 }\n", err: "campaign-id must be a string", line: 2},
		{name: "bad toml", file: project + "[tool.nullius\n", err: "is not valid TOML", line: 4},
		{name: "duplicate key", file: "[tool.nullius]\nnode-id = \"a\"\nnode-id = \"b\"\n", err: "is not valid TOML", line: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := pkg(t, c.file)
			b, bound, err := Read(dir)
			if c.err != "" {
				var be *Error
				if !errors.As(err, &be) || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Read error = %v, want a *Error containing %q", err, c.err)
				}
				if be.Line != c.line || be.Path != Path(dir) {
					t.Errorf("error located at %s:%d, want %s:%d (%v)", be.Path, be.Line, Path(dir), c.line, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if b != c.want || bound != c.bound {
				t.Errorf("Read = %+v, %v; want %+v, %v", b, bound, c.want, c.bound)
			}
		})
	}
}

func TestReadMissingFile(t *testing.T) {
	b, bound, err := Read(t.TempDir())
	if err != nil || bound || b != (Binding{}) {
		t.Errorf("Read of a directory without pyproject.toml = %+v, %v, %v; want unbound", b, bound, err)
	}
}

// TestWrite is a golden table: the exact bytes after binding, so every
// byte that is not the binding is seen to survive.
func TestWrite(t *testing.T) {
	b := Binding{"cmp00001", "nd000001"}
	const add = "campaign-id = \"cmp00001\"\nnode-id = \"nd000001\"\n"
	cases := []struct{ name, in, want string }{
		{"append table", project, project + "\n[tool.nullius]\n" + add},
		{"append without final newline", "[project]\nname = \"x\"", "[project]\nname = \"x\"\n\n[tool.nullius]\n" + add},
		{"empty file", "", "[tool.nullius]\n" + add},
		{"after the last key of the table, keeping comments",
			project + "\n[tool.nullius]  # lint settings\nignore = [\"GAIA901\"] # why\n\n[tool.ruff]\nx = 1\n",
			project + "\n[tool.nullius]  # lint settings\nignore = [\"GAIA901\"] # why\n" + add + "\n[tool.ruff]\nx = 1\n"},
		{"after a bare header", "[tool.nullius]\n[tool.ruff]\nx = 1\n", "[tool.nullius]\n" + add + "[tool.ruff]\nx = 1\n"},
		{"header at end of file without newline", "[tool.nullius]", "[tool.nullius]\n" + add},
		{"replace in place",
			"[tool.nullius]\nnode-id   =   'old'   # keep me\nwarnings = false\ncampaign-id = \"\"\"c\"\"\"\n",
			"[tool.nullius]\nnode-id   =   \"nd000001\"   # keep me\nwarnings = false\ncampaign-id = \"cmp00001\"\n"},
		{"replace one, add the other",
			"[tool.nullius]\nnode-id = \"zzzzzzzz\"\n\n[x]\n",
			"[tool.nullius]\nnode-id = \"nd000001\"\ncampaign-id = \"cmp00001\"\n\n[x]\n"},
		{"dotted keys under [tool]", "[tool]\nnullius.warnings = false\nblack.x = 1\n",
			"[tool]\nnullius.warnings = false\nnullius.campaign-id = \"cmp00001\"\nnullius.node-id = \"nd000001\"\nblack.x = 1\n"},
		{"dotted keys at the root", "tool.nullius.warnings = false\n[project]\n",
			"tool.nullius.warnings = false\ntool.nullius.campaign-id = \"cmp00001\"\ntool.nullius.node-id = \"nd000001\"\n[project]\n"},
		{"a subtable only", "[tool.nullius.per-file-ignores]\n\"a.py\" = [\"GAIA901\"]\n",
			"[tool.nullius.per-file-ignores]\n\"a.py\" = [\"GAIA901\"]\n\n[tool.nullius]\n" + add},
		{"CRLF", "[project]\r\nname = \"x\"\r\n", "[project]\r\nname = \"x\"\r\n\r\n[tool.nullius]\r\ncampaign-id = \"cmp00001\"\r\nnode-id = \"nd000001\"\r\n"},
		{"inline table with both keys", "[tool]\nnullius = { node-id = \"a\", campaign-id = \"b\" }\n",
			"[tool]\nnullius = { node-id = \"nd000001\", campaign-id = \"cmp00001\" }\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(Path(dir), []byte(c.in), 0o640); err != nil {
				t.Fatal(err)
			}
			if err := Write(dir, b); err != nil {
				t.Fatalf("Write: %v", err)
			}
			got, _ := os.ReadFile(Path(dir))
			if string(got) != c.want {
				t.Errorf("after Write:\n%q\nwant\n%q", got, c.want)
			}
			fi, _ := os.Stat(Path(dir))
			if fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
			}
			if rb, bound, err := Read(dir); err != nil || !bound || rb != b {
				t.Errorf("Read after Write = %+v, %v, %v", rb, bound, err)
			}
		})
	}
}

// TestWriteRefuses: files Write cannot edit safely are refused with a
// message and left byte for byte as they were.
func TestWriteRefuses(t *testing.T) {
	b := Binding{"cmp00001", "nd000001"}
	cases := []struct{ name, in, err string }{
		{"inline table missing a key", "[tool]\nnullius = { warnings = false }\n", "inline table"},
		{"inline tool table", "tool = { black = { x = 1 } }\n", "cannot add the binding safely"},
		{"non-string value", "[tool.nullius]\nnode-id = 5\n", "node-id must be a string"},
		{"not TOML", "[tool.nullius\n", "is not valid TOML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := pkg(t, c.in)
			err := Write(dir, b)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Write error = %v, want %q", err, c.err)
			}
			if got, _ := os.ReadFile(Path(dir)); string(got) != c.in {
				t.Errorf("file changed to %q", got)
			}
		})
	}
	t.Run("invalid ids", func(t *testing.T) {
		for _, bad := range []Binding{{"", "n"}, {"c", " "}, {"c ", "n"}, {"c", "\xff"}} {
			dir := pkg(t, project)
			if err := Write(dir, bad); err == nil {
				t.Errorf("Write(%+v) accepted", bad)
			}
			if got, _ := os.ReadFile(Path(dir)); string(got) != project {
				t.Errorf("file changed to %q", got)
			}
		}
	})
	t.Run("no pyproject", func(t *testing.T) {
		dir := t.TempDir()
		if err := Write(dir, b); err == nil || !strings.Contains(err.Error(), "nullius scaffold") {
			t.Errorf("Write without pyproject.toml = %v", err)
		}
	})
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "elsewhere.toml")
		if err := os.WriteFile(target, []byte(project), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, Path(dir)); err != nil {
			t.Skip(err)
		}
		if err := Write(dir, b); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Write through a symlink = %v", err)
		}
		if got, _ := os.ReadFile(target); string(got) != project {
			t.Errorf("symlink target changed")
		}
	})
}

func TestUpdate(t *testing.T) {
	b := Binding{"cmp00001", "nd000001"}
	dir := pkg(t, project)
	old, was, err := Update(dir, b, func(old Binding, bound bool) error {
		if bound {
			t.Errorf("fresh package reported bound to %+v", old)
		}
		return nil
	})
	if err != nil || was {
		t.Fatalf("Update = %+v, %v, %v", old, was, err)
	}
	// Rebinding to the same idea does not write.
	before, _ := os.Stat(Path(dir))
	if _, was, err := Update(dir, b, nil); err != nil || !was {
		t.Fatalf("same binding: %v, %v", was, err)
	}
	after, _ := os.Stat(Path(dir))
	if !os.SameFile(before, after) {
		t.Errorf("binding to the same idea rewrote the file")
	}
	// allow sees the binding under the lock and can refuse.
	refused := errors.New("bound to another idea")
	other := Binding{"cmp00001", "nd000002"}
	if _, _, err := Update(dir, other, func(old Binding, bound bool) error {
		if !bound || old != b {
			t.Errorf("allow saw %+v, %v", old, bound)
		}
		return refused
	}); !errors.Is(err, refused) {
		t.Fatalf("refusal = %v", err)
	}
	if rb, _, _ := Read(dir); rb != b {
		t.Errorf("refused rebind changed the binding to %+v", rb)
	}
}

// TestWriteWaitsForTheLock: a package directory locked by another step is
// not edited.
func TestWriteWaitsForTheLock(t *testing.T) {
	t.Setenv("NULLIUS_LOCK_WAIT", "0s")
	dir := pkg(t, project)
	lk, err := lockfile.Acquire(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release()
	err = Write(dir, Binding{"cmp00001", "nd000001"})
	var busy *lockfile.BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("Write under a held lock = %v, want BusyError", err)
	}
	if got, _ := os.ReadFile(Path(dir)); string(got) != project {
		t.Errorf("file changed under the lock")
	}
}

func TestCheckIDs(t *testing.T) {
	if err := CheckIDs(Binding{"cmp00001", "nd000001"}); err != nil {
		t.Error(err)
	}
	for _, b := range []Binding{{"cmp0001", "nd000001"}, {"cmp00001", "nd00000i"}, {"CMP00001", "nd000001"}} {
		if err := CheckIDs(b); err == nil {
			t.Errorf("CheckIDs(%+v) accepted", b)
		}
	}
	if got := BindCommand("pkgs/x-gaia", Binding{NodeID: "nd000001"}); got != "nullius bind --package pkgs/x-gaia --campaign-id CAMPAIGN --node-id nd000001" {
		t.Errorf("BindCommand = %q", got)
	}
}

// FuzzWriteRead: whatever ids Write accepts, Read gives back exactly, and
// the rest of the file keeps its values (verify inside Write) — quotes,
// backslashes, newlines, control characters and any Unicode.
func FuzzWriteRead(f *testing.F) {
	bases := []string{project, "", "[tool.nullius]\nnode-id = 'x'\nwarnings = true\n", "[tool]\nnullius.ignore = []\n"}
	for i, s := range []struct{ c, n string }{
		{"cmp00001", "nd000001"}, {`a"b`, `c\d`}, {"line\nbreak", "tab\there"}, {"é中文🙂", "\u2028"},
		{`'''`, `"""`}, {"\x00\x1f\x7f", "#comment"}, {"]\n[evil]", "= \"x\""}, {"\\u0041", "\\"},
	} {
		f.Add(s.c, s.n, uint8(i))
	}
	f.Fuzz(func(t *testing.T, c, n string, base uint8) {
		dir := pkg(t, bases[int(base)%len(bases)])
		b := Binding{c, n}
		err := Write(dir, b)
		valid := func(s string) bool {
			return utf8.ValidString(s) && strings.TrimSpace(s) != "" && strings.TrimSpace(s) == s
		}
		if !valid(c) || !valid(n) {
			if err == nil {
				t.Fatalf("Write accepted %+v", b)
			}
			return
		}
		if err != nil {
			t.Fatalf("Write(%+v): %v", b, err)
		}
		got, bound, err := Read(dir)
		if err != nil || !bound || got != b {
			t.Fatalf("Read after Write(%+v) = %+v, %v, %v", b, got, bound, err)
		}
	})
}

// FuzzWriteAnyFile: on any pyproject.toml, Write either binds (and Read
// gives the binding back) or refuses and leaves the file byte for byte.
func FuzzWriteAnyFile(f *testing.F) {
	for _, s := range []string{project, "", "[tool.nullius]\n", "[tool]\nnullius = {}\n", "tool.nullius.x = 1\n[a]\n",
		"[tool.nullius]\nnode-id = \"\"\"\nx\"\"\"\n", "[[tool.nullius]]\n", "[tool.nullius.a]\n[tool.nullius]\nb = 1\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		dir := pkg(t, file)
		b := Binding{"cmp00001", "nd000001"}
		if err := Write(dir, b); err != nil {
			if got, _ := os.ReadFile(Path(dir)); string(got) != file {
				t.Fatalf("refused Write (%v) changed the file", err)
			}
			return
		}
		if got, bound, err := Read(dir); err != nil || !bound || got != b {
			t.Fatalf("Read after Write = %+v, %v, %v", got, bound, err)
		}
	})
}

func TestScan(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bound := func(c, n string) string {
		return project + "[tool.nullius]\ncampaign-id = \"" + c + "\"\nnode-id = \"" + n + "\"\n"
	}
	write("graphs/a-gaia/pyproject.toml", bound("c0ffee12", "nd000001"))
	write("graphs/b-gaia/pyproject.toml", bound("c0ffee12", "nd000002"))
	write("graphs/b-gaia/sub/pyproject.toml", bound("c0ffee12", "nd000009")) // inside a package: not searched
	write("other/b-copy-gaia/pyproject.toml", bound("c0ffee12", "nd000002"))
	write("graphs/unbound-gaia/pyproject.toml", project)
	write("graphs/broken-gaia/pyproject.toml", "[tool.nullius]\nnode-id = 3\n")
	write(".hidden/x-gaia/pyproject.toml", bound("c0ffee12", "nd000003"))
	write("node_modules/y/pyproject.toml", bound("c0ffee12", "nd000004"))
	write("camp2/a-gaia/pyproject.toml", bound("c0ffee34", "nd000001"))
	ix, err := Scan(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, f := range ix.Packages {
		dirs = append(dirs, f.Dir)
	}
	if got := strings.Join(dirs, " "); got != "camp2/a-gaia graphs/a-gaia graphs/b-gaia other/b-copy-gaia" {
		t.Errorf("packages %s", got)
	}
	if len(ix.Problems) != 1 || !strings.Contains(ix.Problems[0].Error(), "node-id must be a string") {
		t.Errorf("problems %v", ix.Problems)
	}
	if d, err := ix.Lookup("c0ffee12", "nd000001"); err != nil || len(d) != 1 || d[0] != "graphs/a-gaia" {
		t.Errorf("Lookup nd000001 = %v, %v", d, err)
	}
	if d, err := ix.Lookup("", "nd000001"); !errors.Is(err, ErrAmbiguous) || len(d) != 2 {
		t.Errorf("Lookup without campaign = %v, %v", d, err)
	}
	if d, err := ix.Lookup("c0ffee12", "nd000002"); !errors.Is(err, ErrAmbiguous) || len(d) != 2 {
		t.Errorf("Lookup of a node bound twice = %v, %v", d, err)
	}
	if d, err := ix.Lookup("c0ffee12", "nd000007"); err != nil || len(d) != 0 {
		t.Errorf("Lookup of an unbound node = %v, %v", d, err)
	}
}

// NodeCampaign: the node's own non-empty string, else the wrapper's string,
// else "" (pipeline/report's TestNodeCampaignFallback pins it through both
// readers of nodes files).
func TestNodeCampaign(t *testing.T) {
	for _, tc := range []struct {
		node, wrapper map[string]any
		want          string
	}{
		{map[string]any{"campaign_id": "c0ffee12"}, map[string]any{"campaign_id": "c0ffee13"}, "c0ffee12"},
		{map[string]any{}, map[string]any{"campaign_id": "c0ffee13"}, "c0ffee13"},
		{map[string]any{"campaign_id": ""}, map[string]any{"campaign_id": "c0ffee13"}, "c0ffee13"},
		{map[string]any{"campaign_id": 5.0}, map[string]any{"campaign_id": "c0ffee13"}, "c0ffee13"},
		{map[string]any{"campaign_id": nil}, nil, ""},
		{map[string]any{}, map[string]any{"campaign_id": 5.0}, ""},
		{map[string]any{"campaign_id": "c0ffee12"}, nil, "c0ffee12"},
	} {
		if got := NodeCampaign(tc.node, tc.wrapper); got != tc.want {
			t.Errorf("NodeCampaign(%v, %v) = %q, want %q", tc.node, tc.wrapper, got, tc.want)
		}
	}
}
