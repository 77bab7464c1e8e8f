// Package progress reports long work while it happens: the seats of a
// judge panel and the tally as votes arrive, the gaia stages of an
// extraction, the count of a lint over many packages (issue 16: a panel
// was silent until every judge had answered, and judges may take 17
// minutes).
//
// Pipeline code emits Events through a Reporter it is given (a required
// collaborator: Discard is the explicit "report nothing"); the CLI picks a
// Display that renders them: a live block on a terminal (NewTTY), one JSON
// object per line for agents driving nullius (NewJSON, the schema is
// schemas/progress_event_v1.schema.json), or nothing.
package progress

import (
	"io"
	"slices"
	"sync"
	"time"
)

// Operations, the Op of an Event.
const (
	OpPanel   = "panel"
	OpExtract = "extract"
	OpLint    = "lint"
)

// Event kinds.
const (
	KindSeat  = "seat"  // a panel seat changed state
	KindTally = "tally" // the panel's votes so far
	KindStage = "stage" // an extraction stage started or ended
	KindCount = "count" // how many packages a lint has finished
	KindDone  = "done"  // the operation ended (State says how)
)

// Seat states.
const (
	SeatWaiting = "waiting" // dispatched, not started
	SeatRunning = "running" // a judge is running (Attempt says which)
	SeatVoted   = "voted"   // a vote was collected (Vote says which)
	SeatFailed  = "failed"  // every attempt failed (Reason says why)
	SeatAbsent  = "absent"  // never run: unusable, unreachable or no reply file (Reason)
)

// Stage states.
const (
	StageRunning = "running"
	StageOK      = "ok"
	StageFailed  = "failed"
	StageSkipped = "skipped"
)

// Event is one thing long work reports. Which fields are set depends on
// Kind; the JSON form is documented by schemas/progress_event_v1.schema.json.
type Event struct {
	Op      string `json:"op"`
	Kind    string `json:"event"`
	Seat    string `json:"seat,omitempty"`    // seat: the family label (degraded seats: "host seat 2")
	Stage   string `json:"stage,omitempty"`   // stage: e.g. "gaia build compile"
	State   string `json:"state,omitempty"`   // seat, stage and done events
	Attempt int    `json:"attempt,omitempty"` // seat running: 1, or 2 for the retry
	Vote    string `json:"vote,omitempty"`    // seat voted: a, b or tie
	Reason  string `json:"reason,omitempty"`  // seat failed or absent; a retry's cause; a stage failure
	Tally   *Tally `json:"tally,omitempty"`   // tally events
	Count   *int   `json:"count,omitempty"`   // count events: packages finished
	// Elapsed is how long the seat, stage or operation took, on the events
	// that end one (voted, failed, ok, done...).
	Elapsed time.Duration `json:"-"`
}

// Tally is a panel's votes so far and the floor it must reach.
type Tally struct {
	A      int `json:"a"`
	B      int `json:"b"`
	Tie    int `json:"tie"`
	Needed int `json:"needed"` // the roster's cross_family_minimum
}

// Votes is the number of votes counted.
func (t Tally) Votes() int { return t.A + t.B + t.Tie }

// Reporter receives events. Implementations are safe for concurrent use
// (panel seats report from their own goroutines).
type Reporter interface {
	Report(Event)
}

// Discard reports nothing: the explicit no-op a caller without a display
// passes.
var Discard Reporter = discard{}

type discard struct{}

func (discard) Report(Event) {}

// Display is a Reporter that owns part of a terminal or stream.
type Display interface {
	Reporter
	// Writer returns w wrapped so that what the command prints there
	// while the display is live does not tear the live block.
	Writer(w io.Writer) io.Writer
	// Close ends the display: a panel's final block stays on screen, a
	// transient status line is erased.
	Close()
}

// None is the Display of nothing (stderr is not a terminal, or --quiet).
var None Display = none{}

type none struct{}

func (none) Report(Event)                 {}
func (none) Writer(w io.Writer) io.Writer { return w }
func (none) Close()                       {}

// Seat is a seat event.
func Seat(name, state string) Event {
	return Event{Op: OpPanel, Kind: KindSeat, Seat: name, State: state}
}

// Stage is a stage event of an extraction.
func Stage(name, state string) Event {
	return Event{Op: OpExtract, Kind: KindStage, Stage: name, State: state}
}

// Count is a lint count event.
func Count(n int) Event { return Event{Op: OpLint, Kind: KindCount, Count: &n} }

// Done is the end of an operation.
func Done(op, state string) Event { return Event{Op: op, Kind: KindDone, State: state} }

// Recorder keeps every event it is given, for tests of the code that
// reports them.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Report implements Reporter.
func (r *Recorder) Report(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// Events returns a copy of the events so far, in the order reported.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}
