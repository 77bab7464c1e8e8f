package progress

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// screen is the few terminal controls TTY uses, applied to a grid of
// lines: text, \n, \r, ESC[nA (cursor up) and ESC[J (clear to the end).
type screen struct {
	lines []string
	row   int
}

var ctl = regexp.MustCompile(`^\x1b\[(\d*)([AJ])`)

func (s *screen) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		if m := ctl.FindSubmatch(p[i:]); m != nil {
			switch m[2][0] {
			case 'A':
				n, _ := strconv.Atoi(string(m[1]))
				s.row = max(0, s.row-n)
			case 'J':
				s.lines = s.lines[:min(s.row, len(s.lines))]
			}
			i += len(m[0])
			continue
		}
		switch p[i] {
		case '\r':
		case '\n':
			s.row++
		default:
			for len(s.lines) <= s.row {
				s.lines = append(s.lines, "")
			}
			r, n := utf8.DecodeRune(p[i:])
			s.lines[s.row] += string(r)
			i += n
			continue
		}
		i++
	}
	return len(p), nil
}

func (s *screen) String() string { return strings.Join(s.lines, "\n") }

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *fakeClock               { return &fakeClock{t: time.Date(2026, 7, 5, 8, 0, 0, 0, time.UTC)} }
func tally(a, b, tie, needed int) Event {
	return Event{Op: OpPanel, Kind: KindTally, Tally: &Tally{a, b, tie, needed}}
}
func voted(name, v string, took time.Duration) Event {
	e := Seat(name, SeatVoted)
	e.Vote, e.Elapsed = v, took
	return e
}

// The panel block shows every seat's state and the tally, redrawn in
// place; lines printed through Writer stay above it; Close leaves the
// final block on screen.
func TestTTYPanel(t *testing.T) {
	var scr screen
	c := newClock()
	d := NewTTY(&scr, 100, c.now, nil)
	out := d.Writer(&scr)
	d.Report(Seat("gpt", SeatWaiting))
	d.Report(Seat("kimi", SeatWaiting))
	absent := Seat("claude", SeatAbsent)
	absent.Reason = "the claude runner's executable (claude) is not present"
	d.Report(absent)
	d.Report(tally(0, 0, 0, 3))
	run := Seat("gpt", SeatRunning)
	run.Attempt = 1
	d.Report(run)
	run.Seat = "kimi"
	d.Report(run)
	c.add(3 * time.Second)
	d.Report(voted("gpt", "a", 3*time.Second))
	d.Report(tally(1, 0, 0, 3))
	_, _ = out.Write([]byte("vote collected: gpt -> votes/gpt.json\n"))
	c.add(9 * time.Second)
	retry := Seat("kimi", SeatRunning)
	retry.Attempt, retry.Reason = 2, "runner exit code 1"
	d.Report(retry)
	c.add(2 * time.Second)
	want := "vote collected: gpt -> votes/gpt.json\n" +
		"  gpt     voted    a    3s\n" +
		"  kimi    running  2s  attempt 2 (runner exit code 1)\n" +
		"  claude  absent   the claude runner's executable (claude) is not present\n" +
		"  tally: a 1, b 0, tie 0 (1 of 3 votes needed)"
	d.Report(tally(1, 0, 0, 3)) // any event redraws
	if got := scr.String(); got != want {
		t.Fatalf("screen:\n%s\nwant:\n%s", got, want)
	}
	fail := Seat("kimi", SeatFailed)
	fail.Reason, fail.Elapsed = "runner exit code 1; runner exit code 1", 14*time.Second
	d.Report(fail)
	_, _ = out.Write([]byte("panel inva"))
	d.Close()
	_, _ = out.Write([]byte("lid\n"))
	want = "vote collected: gpt -> votes/gpt.json\n" +
		"panel invalid\n" +
		"  gpt     voted    a    3s\n" +
		"  kimi    failed   14s  runner exit code 1; runner exit code 1\n" +
		"  claude  absent   the claude runner's executable (claude) is not present\n" +
		"  tally: a 1, b 0, tie 0 (1 of 3 votes needed)"
	if got := scr.String(); !strings.HasPrefix(got, "vote collected: gpt -> votes/gpt.json\npanel inva") || !strings.Contains(got, "  kimi    failed   14s  runner exit code 1") {
		t.Fatalf("after Close:\n%s\nwant the final block kept, close to:\n%s", got, want)
	}
}

// An extraction shows the running stage on one line, gone when it ends;
// a lint's count appears only after a second.
func TestTTYStageAndCount(t *testing.T) {
	var scr screen
	c := newClock()
	d := NewTTY(&scr, 80, c.now, nil)
	log := d.Writer(&scr)
	d.Report(Stage("gaia build compile", StageRunning))
	c.add(4 * time.Second)
	d.Report(Stage("gaia build check", StageSkipped)) // another stage's event redraws
	if got := scr.String(); got != "gaia build compile: running 4s" {
		t.Fatalf("screen %q", got)
	}
	d.Report(Stage("gaia build compile", StageOK))
	_, _ = log.Write([]byte("ok: build compile\n"))
	if got := scr.String(); got != "ok: build compile" {
		t.Fatalf("screen %q", got)
	}
	d.Report(Count(10))
	if got := scr.String(); got != "ok: build compile" {
		t.Fatalf("a count before a second showed: %q", got)
	}
	c.add(1500 * time.Millisecond)
	d.Report(Count(250))
	if got := scr.String(); got != "ok: build compile\nlint: 250 packages checked (2s)" {
		t.Fatalf("screen %q", got)
	}
	d.Close()
	if got := scr.String(); got != "ok: build compile" {
		t.Fatalf("after Close the count stayed: %q", got)
	}
}

// Long rows are cut to the terminal width, so the block's line count (and
// the redraw) stays right.
func TestTTYClipsToWidth(t *testing.T) {
	var scr screen
	d := NewTTY(&scr, 30, newClock().now, nil)
	e := Seat("gpt", SeatAbsent)
	e.Reason = strings.Repeat("very long reason ", 10)
	d.Report(e)
	d.Report(e)
	if got := scr.String(); len([]rune(got)) > 29 || strings.Count(got, "\n") != 0 {
		t.Fatalf("screen %q", got)
	}
}

// JSON: one object per line with the version, a UTC time and, for events
// that end something, elapsed_ms.
func TestJSONLines(t *testing.T) {
	var b bytes.Buffer
	c := newClock()
	d := NewJSON(&b, c.now)
	d.Report(Seat("gpt", SeatWaiting))
	d.Report(voted("gpt", "a", 1500*time.Millisecond))
	d.Report(tally(1, 0, 0, 3))
	d.Report(Count(0))
	want := `{"version":1,"time":"2026-07-05T08:00:00.000Z","op":"panel","event":"seat","seat":"gpt","state":"waiting"}
{"version":1,"time":"2026-07-05T08:00:00.000Z","elapsed_ms":1500,"op":"panel","event":"seat","seat":"gpt","state":"voted","vote":"a"}
{"version":1,"time":"2026-07-05T08:00:00.000Z","op":"panel","event":"tally","tally":{"a":1,"b":0,"tie":0,"needed":3}}
{"version":1,"time":"2026-07-05T08:00:00.000Z","op":"lint","event":"count","count":0}
`
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 1499 * time.Millisecond: "1s", 59 * time.Second: "59s", 125 * time.Second: "2m05s"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}
