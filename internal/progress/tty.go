package progress

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// lintDelay is how long a lint runs before its count is shown: a quick run
// stays silent.
const lintDelay = time.Second

// TTY draws a live block at the bottom of a terminal: a panel's seats and
// tally, the running gaia stage, a lint's count. It redraws in place on
// every event and on every tick (elapsed times), and keeps what the
// command prints through Writer above the block.
type TTY struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	width int
	drawn int  // lines of the block on screen
	done  bool // Close ran

	seats  []*seatRow
	byName map[string]*seatRow
	tally  *Tally

	stage      string
	stageStart time.Time

	lintStart time.Time
	count     int
	counting  bool

	stop    chan struct{}
	writers []*above
}

type seatRow struct {
	name, state, vote, reason string
	attempt                   int
	start                     time.Time
	took                      time.Duration
}

// NewTTY returns a terminal display drawing on w (the terminal's stderr),
// width columns wide (0: 80), with times from now. Each value from tick
// redraws the block (elapsed times move); nil never ticks.
func NewTTY(w io.Writer, width int, now func() time.Time, tick <-chan time.Time) *TTY {
	if width <= 0 {
		width = 80
	}
	t := &TTY{w: w, width: width, now: now, byName: map[string]*seatRow{}, stop: make(chan struct{})}
	if tick != nil {
		go func() {
			for {
				select {
				case <-tick:
					t.mu.Lock()
					t.redraw()
					t.mu.Unlock()
				case <-t.stop:
					return
				}
			}
		}()
	}
	return t
}

// Report implements Reporter.
func (t *TTY) Report(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return
	}
	switch e.Kind {
	case KindSeat:
		t.seat(e)
	case KindTally:
		tl := *e.Tally
		t.tally = &tl
	case KindStage:
		if e.State == StageRunning {
			t.stage, t.stageStart = e.Stage, t.now()
		} else if e.Stage == t.stage {
			t.stage = ""
		}
	case KindCount:
		if !t.counting {
			t.counting, t.lintStart = true, t.now()
		}
		t.count = *e.Count
	}
	t.redraw()
}

func (t *TTY) seat(e Event) {
	r := t.byName[e.Seat]
	if r == nil {
		r = &seatRow{name: e.Seat}
		t.byName[e.Seat] = r
		t.seats = append(t.seats, r)
	}
	if e.State == SeatRunning && (r.state != SeatRunning || r.attempt != e.Attempt) {
		r.start = t.now() // each attempt has its own timeout: show its time
	}
	r.state, r.vote, r.reason, r.attempt = e.State, e.Vote, e.Reason, e.Attempt
	if e.State == SeatVoted || e.State == SeatFailed {
		r.took = e.Elapsed
		if r.took == 0 && !r.start.IsZero() {
			r.took = t.now().Sub(r.start)
		}
	}
}

// lines is the block as it should look now.
func (t *TTY) lines() []string {
	var out []string
	if len(t.seats) > 0 {
		w := 0
		for _, r := range t.seats {
			w = max(w, utf8.RuneCountInString(r.name))
		}
		for _, r := range t.seats {
			out = append(out, fmt.Sprintf("  %-*s  %-7s  %s", w, r.name, r.state, t.detail(r)))
		}
	}
	if t.tally != nil {
		tl := t.tally
		out = append(out, fmt.Sprintf("  tally: a %d, b %d, tie %d (%d of %d votes needed)", tl.A, tl.B, tl.Tie, min(tl.Votes(), tl.Needed), tl.Needed))
	}
	if t.stage != "" {
		out = append(out, fmt.Sprintf("%s: running %s", t.stage, clock(t.now().Sub(t.stageStart))))
	}
	if t.counting && !t.done && t.now().Sub(t.lintStart) >= lintDelay {
		out = append(out, fmt.Sprintf("lint: %d packages checked (%s)", t.count, clock(t.now().Sub(t.lintStart))))
	}
	for i, l := range out {
		out[i] = clip(strings.TrimRight(l, " "), t.width-1)
	}
	return out
}

// detail is a seat row's last column.
func (t *TTY) detail(r *seatRow) string {
	switch r.state {
	case SeatRunning:
		d := clock(t.now().Sub(r.start))
		if r.attempt > 1 {
			d += fmt.Sprintf("  attempt %d (%s)", r.attempt, r.reason)
		}
		return d
	case SeatVoted:
		return fmt.Sprintf("%-3s  %s", r.vote, clock(r.took))
	case SeatFailed:
		return clock(r.took) + "  " + r.reason
	}
	return r.reason
}

// redraw replaces the block on screen with the current one.
func (t *TTY) redraw() {
	var b bytes.Buffer
	t.erase(&b)
	for _, l := range t.lines() {
		b.WriteString(l + "\n")
		t.drawn++
	}
	_, _ = t.w.Write(b.Bytes())
}

// erase moves to the first line of the block and clears to the end of the
// screen.
func (t *TTY) erase(b *bytes.Buffer) {
	if t.drawn > 0 {
		fmt.Fprintf(b, "\r\x1b[%dA\x1b[J", t.drawn)
		t.drawn = 0
	}
}

// Writer implements Display: each complete line written to the result is
// printed above the block, which is then redrawn below it.
func (t *TTY) Writer(w io.Writer) io.Writer {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := &above{t: t, w: w}
	t.writers = append(t.writers, a)
	return a
}

type above struct {
	t   *TTY
	w   io.Writer
	buf []byte
}

func (a *above) Write(p []byte) (int, error) {
	a.t.mu.Lock()
	defer a.t.mu.Unlock()
	if a.t.done {
		return a.w.Write(p)
	}
	a.buf = append(a.buf, p...)
	i := bytes.LastIndexByte(a.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	var b bytes.Buffer
	a.t.erase(&b)
	_, _ = a.t.w.Write(b.Bytes())
	_, err := a.w.Write(a.buf[:i+1])
	a.buf = a.buf[i+1:]
	a.t.redraw()
	return len(p), err
}

// Close implements Display: the ticker stops; a panel's block is drawn a
// last time and left on screen, a stage or count line is erased. Output
// written through Writer after Close goes straight through.
func (t *TTY) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return
	}
	close(t.stop)
	t.done, t.stage = true, ""
	var b bytes.Buffer
	t.erase(&b)
	_, _ = t.w.Write(b.Bytes())
	for _, a := range t.writers { // a last line without its newline
		if len(a.buf) > 0 {
			_, _ = a.w.Write(a.buf)
			a.buf = nil
		}
	}
	t.redraw()
	t.drawn = 0 // what stays on screen is no longer the block's to erase
}

// clock is a duration as a terminal shows it: 7s, 2m05s.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s < 60 {
		return fmt.Sprintf("%ds", s)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
