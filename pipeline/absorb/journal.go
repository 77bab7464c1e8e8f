package absorb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// An absorb edits three files: both packages' root modules and the
// artifact. It is one transaction (issue 13):
//
//  1. lock the journal directory, then the artifact's directory and both
//     packages (one sorted batch), so two absorbs cannot interleave and
//     cannot deadlock (every absorb takes the journal lock first);
//  2. recover any journal a killed absorb left (below);
//  3. check everything, compute all three files' new bytes;
//  4. write the journal, state "prepared": each file's path, mode, bytes
//     and sha256 before and after (fsynced, atomically);
//  5. write both modules (atomically), lint both packages again;
//  6. rewrite the journal with state "committed";
//  7. write the artifact (observation_write), delete the journal.
//
// A crash anywhere leaves either no journal (nothing was edited yet, or
// everything is done) or a journal that decides the outcome: "prepared"
// rolls every file back to its before bytes, "committed" completes every
// file to its after bytes. A file is only ever replaced when its digest
// is the other recorded state; a file in neither state (edited since) is
// left alone and reported, and the journal stays, so recovery never
// claims what it did not do. Recovery is idempotent: a crash during it
// leaves the journal, and the next run finds each file in one of the two
// states and carries on.

// Journal states.
const (
	statePrepared  = "prepared"  // edits may have begun; not yet checked: roll back
	stateCommitted = "committed" // every check passed: complete
)

// journalDir is where journals live, relative to the project root.
const journalDir = ".nullius/journal"

// journal is the intent record of one absorb, written before its first
// edit. Paths are project-relative (slash-separated), so a moved project
// still recovers, and nothing outside the root can be named.
type journal struct {
	Version int           `json:"version"`
	Step    string        `json:"step"`
	MatchID string        `json:"match_id"`
	State   string        `json:"state"`
	Locks   []string      `json:"locks"` // directories the absorb locked besides the journal directory
	Files   []journalFile `json:"files"` // module A, module B, artifact
}

type journalFile struct {
	Path         string      `json:"path"`
	Mode         fs.FileMode `json:"mode"`
	BeforeSHA256 string      `json:"before_sha256"`
	AfterSHA256  string      `json:"after_sha256"`
	Before       []byte      `json:"before"` // base64 in the JSON
	After        []byte      `json:"after"`
	// OnCommit marks a file written only after the journal is committed
	// (the artifact): a rollback never has anything of absorb's to undo in
	// it, so a change found there is someone else's and is left alone
	// without failing the rollback.
	OnCommit bool `json:"on_commit"`
}

func journalName(matchID string) string { return "absorb-" + matchID + ".json" }

// maxJournal bounds a journal read: the before and after bytes of two
// modules and an artifact, each at its own cap, in base64.
const maxJournal = (4*readlimit.MaxMarkdown+2*readlimit.MaxJSON)/3*4 + 1<<20

// readJournal reads and checks a journal: a journal is trusted only as
// far as it is self-consistent (digests match the bytes, paths stay in
// the project), since recovery writes what it says.
func readJournal(root, p string) (*journal, error) {
	data, err := readlimit.Read(p, "absorb journal", maxJournal)
	if err != nil {
		return nil, err
	}
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("not a journal nullius wrote: %v", err)
	}
	switch {
	case j.Version != 1 || j.Step != "absorb":
		return nil, fmt.Errorf("not an absorb journal of version 1 (version %d, step %q)", j.Version, j.Step)
	case !matchproto.ShortIDRE.MatchString(j.MatchID) || filepath.Base(p) != journalName(j.MatchID):
		return nil, fmt.Errorf("match_id %q does not name this journal", j.MatchID)
	case j.State != statePrepared && j.State != stateCommitted:
		return nil, fmt.Errorf("unknown state %q", j.State)
	case len(j.Files) != 3:
		return nil, fmt.Errorf("%d files recorded, want 3", len(j.Files))
	}
	for _, l := range j.Locks {
		if _, err := inRoot(root, l); err != nil {
			return nil, err
		}
	}
	for _, f := range j.Files {
		if _, err := inRoot(root, f.Path); err != nil {
			return nil, err
		}
		if digest.Of(f.Before) != f.BeforeSHA256 || digest.Of(f.After) != f.AfterSHA256 {
			return nil, fmt.Errorf("the bytes recorded for %s do not match their digests", f.Path)
		}
		if f.Mode&^fs.ModePerm != 0 {
			return nil, fmt.Errorf("mode %v recorded for %s is not a permission", f.Mode, f.Path)
		}
	}
	return &j, nil
}

// inRoot turns a project-relative path from a journal into a path under
// root, refusing anything that could leave it: absolute paths, "..", and
// a directory that resolves (through symbolic links) outside the root.
func inRoot(root, rel string) (string, error) {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("path %q is not a clean project-relative path", rel)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	dir, err := contain.Resolve(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	if !contain.Within(dir, root) {
		return "", fmt.Errorf("path %q leads outside the project root", rel)
	}
	return filepath.Join(dir, filepath.Base(p)), nil
}

// writeJournal writes j durably (temp file, fsync, rename, directory
// fsync); create refuses to replace an existing journal.
func writeJournal(p string, j *journal, create bool) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if create {
		return atomicfile.WriteNew(p, data, 0o644)
	}
	return atomicfile.WriteFile(p, data, 0o644)
}

// FileOutcome says what recovery found and did for one journaled file.
type FileOutcome struct {
	Path   string `json:"path"`   // project-relative
	Found  string `json:"found"`  // "before", "after", "changed" (neither) or "missing"
	Action string `json:"action"` // "kept" (already right), "restored", "completed", or "left" (could not)
	Error  string `json:"error,omitempty"`
}

// Recovery is what became of one journal.
type Recovery struct {
	Journal string `json:"journal"` // project-relative path
	MatchID string `json:"match_id"`
	// Action: "completed" (every file now holds the absorbed bytes, the
	// artifact is marked), "rolled_back" (every file holds its bytes from
	// before), or "failed" (some file could not be set; the journal stays).
	Action   string        `json:"action"`
	Files    []FileOutcome `json:"files"`
	Removed  []string      `json:"temp_files_removed"` // project-relative
	Problems []string      `json:"problems"`
}

// MarshalJSON writes an empty list as [], never null, as
// schemas/recover_result_v1.schema.json says (recover's "journals" and
// absorb's "recovered" carry Recovery records).
func (r *Recovery) MarshalJSON() ([]byte, error) {
	type plain Recovery
	c := plain(*r)
	if c.Files == nil {
		c.Files = []FileOutcome{}
	}
	if c.Removed == nil {
		c.Removed = []string{}
	}
	if c.Problems == nil {
		c.Problems = []string{}
	}
	return json.Marshal(c)
}

// Done reports whether the journal was settled and removed.
func (r *Recovery) Done() bool { return r.Action == "completed" || r.Action == "rolled_back" }

// Summary is one line for people.
func (r *Recovery) Summary() string {
	switch r.Action {
	case "completed":
		return fmt.Sprintf("interrupted absorb of match %s completed: both modules hold it and the artifact is marked (journal %s removed)", r.MatchID, r.Journal)
	case "rolled_back":
		return fmt.Sprintf("interrupted absorb of match %s rolled back: both modules and the artifact are as they were before it (journal %s removed)", r.MatchID, r.Journal)
	}
	what := "settled"
	if r.MatchID != "" {
		what = "of match " + r.MatchID + " could not be completed or rolled back"
	}
	return fmt.Sprintf("interrupted absorb %s: %s; the journal %s is kept", what, strings.Join(r.Problems, "; "), r.Journal)
}

// settle brings every file of j to its "before" (rollback) or "after"
// (complete) bytes, then removes the temporary files killed writers left
// beside them and, when every file is right, the journal itself. The
// caller holds the journal directory's lock and the locks of j.Locks.
func settle(root, jpath string, j *journal, complete bool) *Recovery {
	rec := &Recovery{Journal: relTo(root, jpath), MatchID: j.MatchID, Action: "failed"}
	verb := "restored"
	if complete {
		verb = "completed"
	}
	for i, f := range j.Files {
		out := FileOutcome{Path: f.Path}
		p, err := inRoot(root, f.Path)
		if err != nil {
			out.Found, out.Action, out.Error = "missing", "left", err.Error()
			rec.Files = append(rec.Files, out)
			continue
		}
		want, wantSHA, otherSHA := f.Before, f.BeforeSHA256, f.AfterSHA256
		if complete {
			want, wantSHA, otherSHA = f.After, f.AfterSHA256, f.BeforeSHA256
		}
		// Anything longer than both recorded states is neither of them, so
		// the read is capped at the longer one.
		cur, err := readlimit.Read(p, "journaled file", int64(max(len(f.Before), len(f.After))))
		var tooLarge *readlimit.TooLargeError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out.Found, out.Action, out.Error = "missing", "left", "the file no longer exists"
		case errors.As(err, &tooLarge) && f.OnCommit && !complete:
			out.Found, out.Action = "changed", "kept"
		case errors.As(err, &tooLarge):
			out.Found, out.Action = "changed", "left"
			out.Error = "it changed since the absorb (it is now longer than both recorded states), so nullius leaves it as it is"
		case err != nil:
			out.Found, out.Action, out.Error = "changed", "left", err.Error()
		default:
			switch d := digest.Of(cur); {
			case d == wantSHA:
				out.Found, out.Action = stateName(complete), "kept"
			case d == otherSHA:
				out.Found = stateName(!complete)
				failpointAt(fmt.Sprintf("recover-write-%d", i), p)
				if err := atomicfile.WriteFile(p, want, f.Mode); err != nil {
					out.Action, out.Error = "left", err.Error()
				} else {
					out.Action = verb
				}
			case f.OnCommit && !complete:
				out.Found, out.Action = "changed", "kept"
			default:
				out.Found, out.Action = "changed", "left"
				out.Error = fmt.Sprintf("it changed since the absorb (now %s; before %s, after %s), so nullius leaves it as it is", d, f.BeforeSHA256, f.AfterSHA256)
			}
		}
		rec.Files = append(rec.Files, out)
		removed, err := atomicfile.RemoveTemps(p)
		for _, r := range removed {
			rec.Removed = append(rec.Removed, relTo(root, r))
		}
		if err != nil {
			rec.Problems = append(rec.Problems, fmt.Sprintf("could not remove a temporary file beside %s: %v", f.Path, err))
		}
	}
	for _, f := range rec.Files {
		if f.Action == "left" {
			rec.Problems = append(rec.Problems, fmt.Sprintf("%s could not be %s: %s", f.Path, verb, f.Error))
		}
	}
	if len(rec.Problems) > 0 {
		return rec
	}
	failpoint("recover-settled")
	if err := atomicfile.Remove(jpath); err != nil {
		rec.Problems = append(rec.Problems, fmt.Sprintf("every file is %s, but the journal could not be removed: %v", verb, err))
		return rec
	}
	rec.Action = map[bool]string{true: "completed", false: "rolled_back"}[complete]
	return rec
}

func stateName(after bool) string {
	if after {
		return "after"
	}
	return "before"
}

// relTo is p relative to root in slash form, or p when it is not under it.
func relTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// recoverAll settles every journal in the project's journal directory
// and removes the temporary files of interrupted journal writes. The
// caller holds the journal directory's lock, so no absorb is running: every
// journal found belongs to a killed one. Each journal's directories are
// added to locks (and stay held until the caller releases them).
func recoverAll(root string, locks *lockfile.Set) ([]*Recovery, []string, error) {
	dir := filepath.Join(root, filepath.FromSlash(journalDir))
	ents, err := readlimit.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	var recs []*Recovery
	var removed []string
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".absorb-") {
			// A journal write killed before its rename: the temp file of
			// absorb-<id>.json. Nothing was edited after it.
			if i := strings.Index(name, ".json.tmp-"); i > 0 {
				r, err := atomicfile.RemoveTemps(filepath.Join(dir, name[1:i+len(".json")]))
				if err != nil {
					return recs, removed, err
				}
				for _, p := range r {
					removed = append(removed, relTo(root, p))
				}
			}
			continue
		}
		if !strings.HasPrefix(name, "absorb-") || !strings.HasSuffix(name, ".json") {
			continue
		}
		jpath := filepath.Join(dir, name)
		rec := recoverOne(root, jpath, locks)
		recs = append(recs, rec)
	}
	return recs, removed, nil
}

// recoverOne settles one journal: it locks the journal's directories,
// then completes it when it was committed and rolls it back otherwise.
func recoverOne(root, jpath string, locks *lockfile.Set) *Recovery {
	j, err := readJournal(root, jpath)
	if err != nil {
		return &Recovery{Journal: relTo(root, jpath), Action: "failed",
			Problems: []string{fmt.Sprintf("the journal cannot be used: %v", err)}}
	}
	var dirs []string
	for _, l := range j.Locks {
		d, err := inRoot(root, l)
		if err != nil {
			return &Recovery{Journal: relTo(root, jpath), MatchID: j.MatchID, Action: "failed", Problems: []string{err.Error()}}
		}
		dirs = append(dirs, d)
	}
	if err := locks.Add(dirs...); err != nil {
		return &Recovery{Journal: relTo(root, jpath), MatchID: j.MatchID, Action: "failed", Problems: []string{err.Error()}}
	}
	return settle(root, jpath, j, j.State == stateCommitted)
}

// Report is what Recover did in one project.
type Report struct {
	Root     string      `json:"-"`
	Journals []*Recovery `json:"journals"`
	Removed  []string    `json:"temp_files_removed"` // of interrupted journal writes
}

// Failed lists the journals that could not be settled.
func (r *Report) Failed() []*Recovery {
	var out []*Recovery
	for _, j := range r.Journals {
		if !j.Done() {
			out = append(out, j)
		}
	}
	return out
}

// Recover settles every interrupted absorb of the project at root: what
// `nullius recover` runs, and lint before it lints. It waits up to wait
// for a running absorb (which holds the journal directory) and returns a
// *lockfile.BusyError when one is still running. A project without a
// journal directory has nothing to recover.
func Recover(root string, wait bool) (*Report, error) {
	dir := filepath.Join(root, filepath.FromSlash(journalDir))
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return &Report{Root: root}, nil
	} else if err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, &readlimit.NotDirError{Path: relTo(root, dir), Mode: fi.Mode()}
	}
	var locks lockfile.Set
	defer locks.Release()
	if wait {
		if err := locks.Add(dir); err != nil {
			return nil, err
		}
	} else {
		lk, err := lockfile.Acquire(dir, 0)
		if err != nil {
			return nil, err
		}
		defer lk.Release()
	}
	recs, removed, err := recoverAll(root, &locks)
	if err != nil {
		return nil, err
	}
	return &Report{Root: root, Journals: recs, Removed: removed}, nil
}

// Pending reports whether the project at root has anything for Recover to
// do: a journal or a journal's temporary file. It only lists a directory,
// so lint can call it on every run.
func Pending(root string) bool {
	ents, err := readlimit.ReadDir(filepath.Join(root, filepath.FromSlash(journalDir)))
	if err != nil {
		// Anything but a directory there (or an unreadable one) is for
		// Recover to report; only a missing one means nothing to do.
		return !errors.Is(err, fs.ErrNotExist)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "absorb-") || strings.HasPrefix(e.Name(), ".absorb-") {
			return true
		}
	}
	return false
}

// Diagnostic is the MATCH067 finding of a journal that could not be
// settled, located at the journal.
func (r *Recovery) Diagnostic() diag.Diagnostic {
	return ruleInterrupted.New(r.Journal, 1, 1, 1, 1, "%s", r.Summary())
}
