package writeback

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 7: the files writeback reads through a project:// reference stay
// inside the package and the root even when they are symlinks: a
// symlinked .gaia/ or ir.json, or a beliefs.json linked in from another
// package, is refused. Each case moves the real file out and links it back.
func TestVerifyPackageRefusesLinkedFilesOutside(t *testing.T) {
	for _, tc := range []struct {
		name, rel, want string
	}{
		{"ir.json", ".gaia/ir.json", "escapes"},
		{".gaia dir", ".gaia", "escapes"},
		{"beliefs.json", ".gaia/beliefs.json", "escapes the package"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, p := newPackage(t, nil)
			pkg := filepath.Join(root, "argument-graphs", "example-idea-gaia")
			outside := filepath.Join(t.TempDir(), filepath.Base(tc.rel))
			must(t, os.Rename(filepath.Join(pkg, tc.rel), outside))
			if err := os.Symlink(outside, filepath.Join(pkg, tc.rel)); err != nil {
				t.Skip("symlinks unsupported")
			}
			_, err := VerifyPackage(root, p, bound, noDiscipline)
			wantRefusal(t, err, tc.want)
		})
	}
}

// A link that stays inside the package is followed.
func TestVerifyPackageFollowsLinksInside(t *testing.T) {
	root, p := newPackage(t, nil)
	gaia := filepath.Join(root, "argument-graphs", "example-idea-gaia", ".gaia")
	must(t, os.Rename(filepath.Join(gaia, "beliefs.json"), filepath.Join(gaia, "beliefs-v2.json")))
	if err := os.Symlink("beliefs-v2.json", filepath.Join(gaia, "beliefs.json")); err != nil {
		t.Skip("symlinks unsupported")
	}
	if _, err := VerifyPackage(root, p, bound, noDiscipline); err != nil {
		t.Fatal(err)
	}
}

// Even a Posterior built without ValidatePosterior (whose grammar refuses
// '..' segments) cannot reach a package beside the root through '..'.
func TestVerifyPackageDotDotEscape(t *testing.T) {
	root, p := newPackage(t, nil)
	other, _ := newPackage(t, nil)
	rel, err := filepath.Rel(root, filepath.Join(other, "argument-graphs", "example-idea-gaia"))
	must(t, err)
	if !strings.HasPrefix(rel, "..") {
		t.Fatalf("rel %q", rel)
	}
	p.RelPath = filepath.ToSlash(rel)
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "escapes")
}

// Issue 7: the --rpc command runs without a shell: its words reach the
// program literally.
func TestRPCCommandRunsWithoutAShell(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "pwned")
	argv, err := SplitCommand(`/bin/echo "$(touch ` + marker + `)" '|' ';' touch ` + marker + " `touch " + marker + "`")
	must(t, err)
	out, _, code, err := CommandCaller{Argv: argv}.Call(context.Background(), []byte("{}"))
	must(t, err)
	if want := "$(touch " + marker + ") | ; touch " + marker + " `touch " + marker + "`\n"; code != 0 || string(out) != want {
		t.Errorf("exit %d stdout %q, want %q", code, out, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a shell ran the RPC command")
	}
}

// Issue 7: an RPC caller that floods stdout is stopped at the cap with a
// clear error instead of filling memory.
func TestRPCOutputIsCapped(t *testing.T) {
	out, _, code, err := CommandCaller{Argv: []string{"/bin/sh", "-c", "head -c 70000000 /dev/zero"}}.Call(context.Background(), nil)
	if err == nil || code != -1 || out != nil || !strings.Contains(err.Error(), "wrote more than 64 MiB to stdout") {
		t.Fatalf("exit %d, %d bytes, %v", code, len(out), err)
	}
}
