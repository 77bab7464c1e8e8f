package absorb

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/digest"
)

// crashInProcess runs an absorb that stops dead at point, as a killed
// process would: runtime.Goexit leaves the files as they are at that
// moment (only the deferred lock release runs, which the kernel does for a
// killed process too).
func crashInProcess(t *testing.T, fx *fixture, point string) {
	t.Helper()
	reached := false
	SetCrashHook(func(p, _ string) {
		if p == point {
			reached = true
			runtime.Goexit()
		}
	})
	defer SetCrashHook(nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = Absorb(fx.opts(), fx.checks())
	}()
	<-done
	if !reached {
		t.Fatalf("crash point %s not reached", point)
	}
}

func (fx *fixture) journal() string {
	return filepath.Join(fx.root, ".nullius", "journal", journalName("mmmmmmmm"))
}

func (fx *fixture) moduleA() string { return filepath.Join(fx.a, "src", "idea", "__init__.py") }
func (fx *fixture) moduleB() string { return filepath.Join(fx.b, "src", "idea", "__init__.py") }

// A file edited after the crash is in neither recorded state: recovery
// leaves it, says so, keeps the journal, and never claims the rollback;
// put back, the next recovery finishes the job.
func TestRecoverLeavesChangedFile(t *testing.T) {
	art := artifact([]string{"a", "a", "a"}, "a", false)
	fx := setup(t, art)
	crashInProcess(t, fx, "module-b")
	edited := read(t, fx.moduleB())
	os.WriteFile(fx.moduleB(), []byte(module+"# my own edit\n"), 0o644)
	rep, err := Recover(fx.root, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Journals) != 1 || rep.Journals[0].Done() {
		t.Fatalf("recovery claimed success: %+v", rep.Journals)
	}
	rec := rep.Journals[0]
	if rec.Files[0].Action != "restored" || rec.Files[1].Found != "changed" || rec.Files[1].Action != "left" {
		t.Fatalf("files: %+v", rec.Files)
	}
	if s := rec.Summary(); !strings.Contains(s, "could not be completed or rolled back") || !strings.Contains(s, "graphs/b é-gaia/src/idea/__init__.py could not be restored") || !strings.Contains(s, "is kept") {
		t.Fatalf("summary %q", s)
	}
	if d := rec.Diagnostic(); d.Code != "MATCH067" || d.Path != ".nullius/journal/absorb-mmmmmmmm.json" {
		t.Fatalf("diagnostic %+v", d)
	}
	if read(t, fx.moduleB()) != module+"# my own edit\n" {
		t.Fatal("recovery overwrote a file it did not recognise")
	}
	if _, err := os.Stat(fx.journal()); err != nil {
		t.Fatal("the journal of an unsettled absorb was removed")
	}
	// An absorb of the same match is refused while its journal is unsettled.
	_, err = Absorb(fx.opts(), fx.checks())
	var r *Refusal
	if !errors.As(err, &r) || r.Diagnostics[0].Code != "MATCH067" {
		t.Fatalf("absorb over an unsettled journal: %v", err)
	}
	// Back in its "after" state, the file is rolled back with the rest.
	os.WriteFile(fx.moduleB(), []byte(edited), 0o644)
	rep, err = Recover(fx.root, true)
	if err != nil || len(rep.Journals) != 1 || rep.Journals[0].Action != "rolled_back" {
		t.Fatalf("second recovery: %v %+v", err, rep)
	}
	if read(t, fx.moduleA()) != module || read(t, fx.moduleB()) != module || read(t, fx.art) != art {
		t.Fatal("not rolled back")
	}
	if rep, _ := Recover(fx.root, true); len(rep.Journals) != 0 {
		t.Fatalf("a third recovery found %+v", rep.Journals)
	}
}

// A journal is trusted only as far as it is self-consistent: one that
// names a path outside the project, or bytes that do not match their
// digests, or a state nullius never writes, settles nothing.
func TestRecoverRefusesForgedJournals(t *testing.T) {
	for name, forge := range map[string]func(j map[string]any){
		"escaping path": func(j map[string]any) {
			j["files"].([]any)[0].(map[string]any)["path"] = "../outside.py"
		},
		"absolute path": func(j map[string]any) {
			j["files"].([]any)[0].(map[string]any)["path"] = "/etc/passwd"
		},
		"wrong digest": func(j map[string]any) {
			j["files"].([]any)[1].(map[string]any)["before_sha256"] = digest.Of([]byte("x"))
		},
		"unknown state":  func(j map[string]any) { j["state"] = "maybe" },
		"unknown field":  func(j map[string]any) { j["extra"] = 1 },
		"other match id": func(j map[string]any) { j["match_id"] = "nnnnnnnn" },
		"escaping lock":  func(j map[string]any) { j["locks"] = []any{"../.."} },
	} {
		t.Run(name, func(t *testing.T) {
			fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
			crashInProcess(t, fx, "module-a")
			data, _ := os.ReadFile(fx.journal())
			var j map[string]any
			if err := json.Unmarshal(data, &j); err != nil {
				t.Fatal(err)
			}
			forge(j)
			data, _ = json.Marshal(j)
			os.WriteFile(fx.journal(), data, 0o644)
			edited := read(t, fx.moduleA())
			rep, err := Recover(fx.root, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Failed()) != 1 || !strings.Contains(rep.Failed()[0].Summary(), "the journal cannot be used") {
				t.Fatalf("forged journal settled: %+v", rep.Journals)
			}
			if read(t, fx.moduleA()) != edited {
				t.Fatal("a forged journal changed a file")
			}
		})
	}
}

// A rollback that cannot restore a file says which, keeps the journal,
// and does not say the packages were restored.
func TestLiveRollbackReportsWhatItCouldNotRestore(t *testing.T) {
	fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
	fx.failLint = "panel loss"
	fx.onLint = func(call int) {
		if call == 3 { // the first lint after the edit: someone edits B meanwhile
			os.WriteFile(fx.moduleB(), []byte(module+"# edited meanwhile\n"), 0o644)
		}
	}
	fx.failLint = "merits sustained" // the appended block: lint after the edit fails
	_, err := Absorb(fx.opts(), fx.checks())
	if err == nil || !strings.Contains(err.Error(), "rolling back failed") || !strings.Contains(err.Error(), "graphs/b é-gaia/src/idea/__init__.py could not be restored") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "both packages were restored") {
		t.Fatalf("claims a restore it did not do: %v", err)
	}
	if read(t, fx.moduleA()) != module {
		t.Fatal("module A not restored")
	}
	if _, err := os.Stat(fx.journal()); err != nil {
		t.Fatal("journal removed although B was not restored")
	}
}

// Pending is what lint looks at on every run: true only with something in
// the journal directory to settle.
func TestPending(t *testing.T) {
	fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
	if Pending(fx.root) {
		t.Fatal("pending without a journal directory")
	}
	if _, err := Absorb(fx.opts(), fx.checks()); err != nil {
		t.Fatal(err)
	}
	if Pending(fx.root) {
		t.Fatal("pending after a whole absorb")
	}
	os.WriteFile(filepath.Join(fx.root, ".nullius", "journal", ".absorb-mmmmmmmm.json.tmp-1"), []byte("{"), 0o644)
	if !Pending(fx.root) {
		t.Fatal("a journal's temporary file is not pending")
	}
	rep, err := Recover(fx.root, true)
	if err != nil || len(rep.Removed) != 1 || Pending(fx.root) {
		t.Fatalf("recover: %v %+v", err, rep)
	}
}
