package main

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/nullius-dev/nullius/internal/progress"
	"github.com/nullius-dev/nullius/internal/suggest"
)

// progressModes are the values of --progress.
var progressModes = []string{"auto", "tty", "json", "none"}

// progressFlags are --progress and --quiet, on the commands that do long
// work (match panel, extract, lint).
type progressFlags struct {
	mode  string
	quiet bool
}

func (f *progressFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.mode, "progress", "auto",
		"live progress on stderr: auto (a live display when stderr is a terminal, else none), tty, json (one event per line, schemas/progress_event_v1.schema.json) or none")
	cmd.Flags().BoolVar(&f.quiet, "quiet", false, "no progress display (--progress none)")
}

// display opens the progress display the flags ask for, on stderr.
func (a *app) display(f *progressFlags) (progress.Display, error) {
	mode := f.mode
	if f.quiet {
		if mode != "auto" && mode != "none" {
			return nil, usageErrorf("--quiet and --progress %s contradict each other; give one", mode)
		}
		mode = "none"
	}
	switch mode {
	case "auto":
		if !terminal(a.stderr) || a.env("TERM") == "dumb" {
			return progress.None, nil
		}
		fallthrough
	case "tty":
		tk := time.NewTicker(time.Second)
		return &ttyDisplay{TTY: progress.NewTTY(a.stderr, termWidth(a.stderr), time.Now, tk.C), tk: tk}, nil
	case "json":
		return progress.NewJSON(a.stderr, time.Now), nil
	case "none":
		return progress.None, nil
	}
	return nil, usageErrorf("invalid --progress %q%s; use %s", mode, suggest.DidYouMean(suggest.Closest(mode, progressModes)), orList(progressModes))
}

// ttyDisplay is the terminal display and the ticker that moves its clocks.
type ttyDisplay struct {
	*progress.TTY
	tk *time.Ticker
}

func (d *ttyDisplay) Close() {
	d.tk.Stop()
	d.TTY.Close()
}

// terminal reports whether w is a terminal.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// termWidth is the width of the terminal w, 0 when unknown.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// lintCounter feeds a lint's running count to a display: the engine
// counts finished packages (analyzers.Options.Finished, one atomic add
// each), and this reads it every quarter second, so the engine does no
// extra work per package for the display.
type lintCounter struct {
	n    atomic.Int64
	stop chan struct{}
	wg   sync.WaitGroup
}

// countLint starts reporting the count to d; nil when d shows nothing.
func countLint(d progress.Display) *lintCounter {
	if d == progress.None {
		return nil
	}
	c := &lintCounter{stop: make(chan struct{})}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		tk := time.NewTicker(250 * time.Millisecond)
		defer tk.Stop()
		last := int64(-1)
		for {
			select {
			case <-tk.C:
				if n := c.n.Load(); n != last {
					last = n
					d.Report(progress.Count(int(n)))
				}
			case <-c.stop:
				return
			}
		}
	}()
	return c
}

// counter is what the engine adds to (nil when nothing is shown).
func (c *lintCounter) counter() *atomic.Int64 {
	if c == nil {
		return nil
	}
	return &c.n
}

// finish stops the ticker and reports the final count and the end.
func (c *lintCounter) finish(d progress.Display, state string) {
	if c == nil {
		return
	}
	close(c.stop)
	c.wg.Wait()
	d.Report(progress.Count(int(c.n.Load())))
	d.Report(progress.Done(progress.OpLint, state))
}
