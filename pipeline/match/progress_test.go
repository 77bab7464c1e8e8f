package match

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/progress"
)

// seatLog is one seat's events as "state[:detail]" strings, in order.
func seatLog(r *progress.Recorder, name string) []string {
	var out []string
	for _, e := range r.Events() {
		if e.Kind != progress.KindSeat || e.Seat != name {
			continue
		}
		s := e.State
		switch {
		case e.Vote != "":
			s += ":" + e.Vote
		case e.Attempt > 0:
			s += fmt.Sprintf(":%d", e.Attempt)
		}
		out = append(out, s)
	}
	return out
}

// The panel reports every seat (waiting, each attempt running, voted or
// failed, absent with the reason), the tally after each vote, and how the
// panel ended (issue 16: it was silent until every judge had answered).
func TestPanelProgressEvents(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.RunnerOverrides = overrides(map[string]string{"gpt": "vote:a", "glm": "fail", "kimi": "vote:b", "claude": "vote:a"})
	rec := &progress.Recorder{}
	o.Progress = rec
	must(t, RunPanel(context.Background(), o))
	for name, want := range map[string][]string{
		"gpt":    {"waiting", "running:1", "voted:a"},
		"kimi":   {"waiting", "running:1", "voted:b"},
		"claude": {"waiting", "running:1", "voted:a"},
		"glm":    {"waiting", "running:1", "running:2", "failed"},
		"gemini": {"absent"},
	} {
		if got := seatLog(rec, name); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	var last progress.Event
	tallies := 0
	for _, e := range rec.Events() {
		switch e.Kind {
		case progress.KindTally:
			tallies++
			last = e
		case progress.KindSeat:
			if e.Seat == "glm" && e.State == progress.SeatRunning && e.Attempt == 2 && !strings.Contains(e.Reason, "runner exit code 1") {
				t.Errorf("the retry does not say why: %q", e.Reason)
			}
			if e.Seat == "glm" && e.State == progress.SeatFailed && (e.Elapsed <= 0 || !strings.Contains(e.Reason, "runner exit code 1")) {
				t.Errorf("failed seat: %+v", e)
			}
			if e.Seat == "gemini" && !strings.Contains(e.Reason, "declared unavailable") {
				t.Errorf("absent seat without its reason: %+v", e)
			}
		}
	}
	if tallies != 4 || *last.Tally != (progress.Tally{A: 2, B: 1, Tie: 0, Needed: 3}) {
		t.Errorf("%d tally events, last %+v; want 4 (start and one per vote), a 2 b 1 of 3", tallies, last.Tally)
	}
	if ev := rec.Events(); ev[len(ev)-1].Kind != progress.KindDone || ev[len(ev)-1].State != "valid" {
		t.Errorf("last event %+v, want done valid", ev[len(ev)-1])
	}
}

// Progress is a required collaborator: a panel without one is refused,
// never silently run without its display.
func TestPanelProgressRequired(t *testing.T) {
	o := opts(setup(t), &stubRunner{}, nil)
	o.Progress = nil
	if err := RunPanel(context.Background(), o); err == nil || !strings.Contains(err.Error(), "Progress is required") {
		t.Fatalf("RunPanel without Progress: %v", err)
	}
}
