package match

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
)

// Doctor is what `nullius match doctor` reports: for the roster a panel
// would use, each family's CLI, runner script, model and whether it would
// run, decided by the same code as the panel, without running a judge.
type Doctor struct {
	Roster       RosterSource `json:"-"`
	Floor        int          `json:"floor"`
	Requested    []string     `json:"families_requested"`
	Usable       int          `json:"usable"`       // usable families over the whole roster (§5.4)
	Mode         string       `json:"independence"` // cross_family, or single_family when the panel would degrade
	Seats        []SeatCheck  `json:"seats"`
	Possible     int          `json:"possible_votes"` // seats that would run, plus the native seat's injected reply
	Independence string       `json:"independence_refusal,omitempty"`
	Verdict      string       `json:"verdict"`
	OK           bool         `json:"would_run"` // a cross-family panel would run and could reach the floor
}

// SeatCheck is one family's preflight.
type SeatCheck struct {
	Family      string   `json:"family"`
	Runner      string   `json:"runner"`
	Model       string   `json:"model"`
	Available   bool     `json:"available"`
	CLI         string   `json:"cli,omitempty"`      // the executable that makes the family usable
	CLIPath     string   `json:"cli_path,omitempty"` // where it is, "" when missing
	Interpreter string   `json:"interpreter,omitempty"`
	Script      string   `json:"runner_script,omitempty"`
	ScriptFrom  string   `json:"runner_script_from,omitempty"`
	Looked      []string `json:"looked_at,omitempty"`
	// RunnerProblem is why the runner could not be started ("" when it can).
	RunnerProblem string   `json:"runner_problem,omitempty"`
	Override      string   `json:"runner_override,omitempty"`
	Argv          []string `json:"argv,omitempty"` // the first attempt's command, paths under --out-dir
	Status        string   `json:"status"`         // run, native, absent, not_run
	Reason        string   `json:"reason,omitempty"`
}

// RunDoctor resolves the roster and flags of o as `match panel` would and
// preflights every requested family. It reads no materials and runs
// nothing; OutDir only places the paths shown in each argv.
func RunDoctor(o PanelOptions) (*Doctor, error) {
	out := o.OutDir
	if out == "" {
		out = "<out-dir>"
	}
	p := &panel{ctx: context.Background(), o: &o,
		promptP: filepath.Join(out, "judge_prompt.md"), systemP: filepath.Join(out, "judge_system.md")}
	var err error
	if p.roster, p.source, err = ResolveRoster(o.Roster, o.MaterialsDir, o.Home); err != nil {
		return nil, err
	}
	if err := p.parseFlags(); err != nil {
		return nil, err
	}
	d := &Doctor{Roster: p.source, Floor: p.roster.Minimum, Requested: p.req, Mode: "cross_family", Usable: p.countUsable()}
	native, hasNative := p.roster.Native()
	var dispatch []matchproto.Family
	for _, lbl := range p.req {
		f, _ := p.roster.Family(lbl)
		c := p.check(f, out)
		why := p.absence(f)
		switch {
		case why != "":
			c.Status, c.Reason = "absent", why
		case hasNative && lbl == native.Label && p.override[lbl] == "":
			c.Status, c.Reason = "native", "the host's own subagent: its reply is injected with --native-vote FILE"
			d.Possible++
		default:
			c.Status = "run"
			dispatch = append(dispatch, f)
			d.Possible++
		}
		d.Seats = append(d.Seats, c)
	}
	if d.Usable < d.Floor {
		d.Mode = "single_family"
		for i := range d.Seats {
			c := &d.Seats[i]
			if hasNative && c.Family == native.Label {
				c.Status, c.Reason = "native", fmt.Sprintf("the panel degrades to %s of this family, one --native-vote FILE each", plural.N(d.Floor, "native subagent seat"))
			} else if c.Status != "absent" {
				c.Status, c.Reason = "not_run", fmt.Sprintf("cross-family floor not met (%d of %d usable); the panel degrades to native subagent seats and this seat is not run", d.Usable, d.Floor)
			}
		}
		d.Verdict = fmt.Sprintf("the roster fields %s of the %d required: the panel would degrade to %s (single_family), one --native-vote reply each", usableFamilies(d.Usable), d.Floor, plural.N(d.Floor, "native subagent seat"))
		if !hasNative || !native.Available {
			d.Verdict = fmt.Sprintf("the roster fields %s of the %d required and no available native family: the panel cannot run", usableFamilies(d.Usable), d.Floor)
		}
		return d, nil
	}
	if _, err := p.checkIndependence(dispatch); err != nil {
		d.Independence = err.Error()
	}
	switch {
	case d.Independence != "":
		d.Verdict = "the panel would be refused: " + d.Independence
	case d.Possible < d.Floor:
		d.Verdict = fmt.Sprintf("at most %s could vote (minimum %d): the panel would call no judge and be invalid", plural.N(d.Possible, "seat"), d.Floor)
	default:
		d.OK = true
		d.Verdict = fmt.Sprintf("a cross-family panel would run: %s could vote (minimum %d)", plural.N(d.Possible, "seat"), d.Floor)
		if slices.ContainsFunc(d.Seats, func(c SeatCheck) bool { return c.Status == "native" }) {
			d.Verdict += "; the native seat needs its --native-vote reply"
		}
	}
	return d, nil
}

// check fills what can be said of f before deciding its status.
func (p *panel) check(f matchproto.Family, out string) SeatCheck {
	c := SeatCheck{Family: f.Label, Runner: f.Runner, Model: p.model(f), Available: f.Available}
	if !f.Available { // never run, whatever is installed
		return c
	}
	attempt := filepath.Join(out, "raw", f.Label, "attempt1")
	if tmpl := p.override[f.Label]; tmpl != "" {
		c.Override = tmpl
		if cmd, _, err := p.familyCommand(f, attempt); err != nil {
			c.Reason = "each attempt would fail: invocation error: " + err.Error()
		} else {
			c.Argv = cmd.Argv
		}
		return c
	}
	if f.Runner == "native" {
		return c
	}
	c.CLI = binary(f.Runner)
	c.CLIPath, _ = p.which(c.CLI)
	l := p.launch(f.Runner)
	c.Interpreter, c.Script, c.ScriptFrom, c.Looked, c.RunnerProblem = l.Interpreter, l.Script, l.From, l.Looked, l.Problem
	if l.Problem == "" {
		if cmd, _, err := p.familyCommand(f, attempt); err == nil {
			c.Argv = cmd.Argv
		}
	}
	return c
}
