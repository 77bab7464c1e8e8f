package match

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nullius-dev/nullius/internal/lockfile"
)

// Issue 7: assemblies of one pair racing each other (two work directories,
// one campaign) must not both pass the rematch guard; without the matches
// directory's lock around guard and write, each would write its own
// artifact for the pair.
func TestAssembleRaceWritesOneArtifactPerPair(t *testing.T) {
	const n = 4
	var work []AssembleOptions
	for range n {
		_, o := assembled(t)
		work = append(work, o)
	}
	for round := range 3 {
		campaign := t.TempDir()
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				oi := work[i]
				oi.CampaignDir = campaign
				oi.MatchID = fmt.Sprintf("4c9a2d1%d", i)
				<-start
				_, errs[i] = Assemble(oi)
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !strings.Contains(err.Error(), "already has a match artifact"):
				t.Errorf("round %d: unexpected refusal: %v", round, err)
			}
		}
		files, _ := filepath.Glob(filepath.Join(campaign, "artifacts", "matches", "match-*.json"))
		if won != 1 || len(files) != 1 {
			t.Fatalf("round %d: %d assemblies won, %d artifacts written for one pair (%v)", round, won, len(files), errs)
		}
	}
}

// Commits racing on one --out: exactly one writes, the others are refused
// (never overwritten), and the file is a valid commitment.
func TestCommitRace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "work", "commitment.json")
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = Commit(out, []any{fmt.Sprintf("criterion %d", i)}, nil)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		var busy *lockfile.BusyError
		switch {
		case err == nil:
			won++
		case errors.As(err, &busy), ExitCode(err) == ExitInvalid && strings.Contains(err.Error(), "never overwritten"):
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d commits won", won)
	}
	if _, err := LoadCommitment(out, "commitment"); err != nil {
		t.Fatal(err)
	}
}

// Every writing step takes the lock of the directory it writes: while
// another step holds it, the step fails with the busy message (and writes
// nothing); once it is released, the step runs.
func TestStepsRefuseALockedDirectory(t *testing.T) {
	t.Setenv("NULLIUS_LOCK_WAIT", "0s")
	dir, ao := assembled(t)
	mat, panelDir := filepath.Join(dir, "mat"), filepath.Join(dir, "panel")
	must(t, os.MkdirAll(filepath.Join(ao.CampaignDir, "artifacts", "matches"), 0o755))
	steps := []struct {
		name   string
		locked string
		run    func() error
	}{
		{"commit", mat, func() error {
			_, err := Commit(filepath.Join(mat, "other.json"), []any{"x"}, nil)
			return err
		}},
		{"render", mat, func() error {
			_, err := Render(RenderOptions{MaterialsDir: mat, CardA: "a.json", CardB: "b.json", Summaries: true})
			return err
		}},
		{"panel materials", mat, func() error {
			o := opts(dir, &stubRunner{}, nil)
			o.RenderOnly = true
			return RunPanel(context.Background(), o)
		}},
		{"panel out", panelDir, func() error {
			o := opts(dir, &stubRunner{}, nil)
			o.RenderOnly = true
			return RunPanel(context.Background(), o)
		}},
		{"assemble materials", mat, func() error { _, err := Assemble(ao); return err }},
		{"assemble panel", panelDir, func() error { _, err := Assemble(ao); return err }},
		{"assemble matches", filepath.Join(ao.CampaignDir, "artifacts", "matches"), func() error { _, err := Assemble(ao); return err }},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			l, err := lockfile.Acquire(s.locked, 0)
			must(t, err)
			err = s.run()
			l.Release()
			want := fmt.Sprintf("(lock held by pid %d); wait for it or remove ", os.Getpid())
			if err == nil || !strings.HasPrefix(err.Error(), "another nullius step is working in ") || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want the busy message", err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(mat, "other.json")); err == nil {
		t.Error("commit wrote while the directory was locked")
	}
	files, _ := filepath.Glob(filepath.Join(ao.CampaignDir, "artifacts", "matches", "match-*.json"))
	if len(files) != 0 {
		t.Errorf("assemble wrote while locked: %v", files)
	}
	// Released: the steps run.
	if _, err := Assemble(ao); err != nil {
		t.Fatal(err)
	}
}
