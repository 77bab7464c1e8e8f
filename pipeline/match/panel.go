package match

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/progress"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/shlex"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// MaxAttempts is the initial attempt plus one retry (§4.7).
const MaxAttempts = 2

// PanelOptions configure `match panel` (the reference's run_panel.py).
type PanelOptions struct {
	MaterialsDir, OutDir string
	Roster               string   // explicit --roster
	Home                 string   // for the user roster; "" for none
	Families             string   // --families a,b ("" = all)
	ModelSpecs           []string // FAMILY=MODEL
	ModelLabels          []string // FAMILY=LABEL
	RunnerOverrides      []string // FAMILY=COMMAND TEMPLATE
	SkillsRoot           string   // --skills-root: the sibling skills' folder ("" = $NULLIUS_SKILLS_ROOT)
	Python               string   // --python: the launcher's interpreter ("" = $NULLIUS_PYTHON, else python3)
	NativeVotes          []string
	TimeoutSecs          int
	WordCap              int
	RenderOnly           bool
	Getenv               func(string) string
	LookPath             func(string) (string, error)
	Runner               Runner
	Now                  Clock
	Templates            Templates
	Out                  io.Writer // progress lines (stdout)
	// Progress receives each seat's state and the tally as votes arrive
	// (a live display on the terminal, or JSON lines): required, with
	// progress.Discard for none.
	Progress progress.Reporter
	// Stdin is what judges read as standard input: nil gives them
	// /dev/null. The CLI passes its own stdin when it is not a terminal,
	// as the reference lets judges inherit it (procrun.Inherit says why a
	// terminal is not passed on).
	Stdin *os.File
}

func (o *PanelOptions) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

func (o *PanelOptions) printf(format string, args ...any) {
	if o.Out != nil {
		fmt.Fprintf(o.Out, format+"\n", args...)
	}
}

// panel is the state of one panel run.
type panel struct {
	ctx      context.Context // cancelled when nullius is interrupted
	o        *PanelOptions
	m        *matchproto.Materials
	prompt   *Prompt
	roster   *matchproto.Roster
	source   RosterSource
	req      []string
	specs    map[string]string
	labels   map[string]string
	override map[string]string
	started  string
	promptP  string
	systemP  string
	votes    []seat

	tallyMu sync.Mutex
	tally   progress.Tally // the votes so far, for Progress
}

// seat is one collected vote or one absence.
type seat struct {
	key, family string
	record      matchproto.Object
	reason      string
	override    bool
	n           int // degraded seat number
}

// RunPanel renders the judge prompt and, unless RenderOnly, runs the panel
// (§4.4, §5). Refusals are *Error with the protocol's exit status: 1 a
// contract violation, 2 the vote floor not met, 3 degraded guidance.
// Cancelling ctx (nullius interrupted) kills every running judge's process
// group; the report then records the interruption and the panel is
// invalid.
func RunPanel(ctx context.Context, o PanelOptions) error {
	if o.Progress == nil {
		return fmt.Errorf("match: PanelOptions.Progress is required (progress.Discard reports nothing)")
	}
	if o.Templates == (Templates{}) {
		o.Templates = DefaultTemplates()
	}
	if o.Runner == nil {
		o.Runner = ExecRunner{}
	}
	// The materials are locked while they are read and the panel runs, the
	// panel directory (created first if need be) while it is written.
	var lk lockfile.Set
	defer lk.Release()
	if err := lk.Add(o.MaterialsDir); err != nil {
		return err
	}
	m, err := LoadMaterials(o.MaterialsDir, o.WordCap)
	if err != nil {
		return err
	}
	if o.OutDir == "" {
		return refuse("--out-dir is required to render the judge prompt or run the panel")
	}
	reportDropped(&o, m)
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return fmt.Errorf("could not create %q: %w", o.OutDir, err)
	}
	if err := lk.Add(o.OutDir); err != nil {
		return err
	}
	for _, sub := range []string{"votes", "raw"} {
		if err := contained(o.OutDir, sub); err != nil {
			return err
		}
	}
	prompt, err := RenderPrompt(m, o.Templates)
	if err != nil {
		return err
	}
	p := &panel{ctx: ctx, o: &o, m: m, prompt: prompt,
		promptP: filepath.Join(o.OutDir, "judge_prompt.md"), systemP: filepath.Join(o.OutDir, "judge_system.md")}
	for _, f := range o.NativeVotes {
		// A reply file that is a FIFO, a device or over the cap is an
		// I/O refusal before anything runs; a missing one stays that
		// seat's failure, as in the reference.
		if err := readlimit.Check(f, readlimit.Small); readlimit.Refused(err) {
			return err
		}
	}
	if len(o.NativeVotes) > 0 {
		// A prompt file over the cap cannot be the rendering either.
		if old, err := readlimit.Read(p.promptP, "judge prompt", readlimit.MaxMarkdown); (err == nil && string(old) != prompt.File) || readlimit.Refused(err) {
			return refuse("%s reflects an earlier rendering of the materials; the native replies were formed against a different prompt. Re-run with --render-prompt-only, give the new prompt to the native seats, then inject their replies", p.promptP)
		}
	}
	for _, f := range []struct{ path, text string }{{p.promptP, prompt.File}, {p.systemP, prompt.System}} {
		if err := atomicfile.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			return err
		}
		o.printf("rendered %s", f.path)
	}
	if o.RenderOnly {
		return nil
	}
	// No refusal below may leave an earlier, valid report behind.
	if err := os.Remove(filepath.Join(o.OutDir, "panel_run_report.json")); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("could not remove the old panel report: %w", err)
	}
	if p.roster, p.source, err = ResolveRoster(o.Roster, o.MaterialsDir, o.Home); err != nil {
		return err
	}
	if err := p.parseFlags(); err != nil {
		return err
	}
	p.started = matchproto.FormatTime(o.Now.now())
	usable := p.countUsable()
	if usable < p.roster.Minimum {
		return p.degraded(usable)
	}
	return p.crossFamily()
}

// reportDropped tells statement authors what the rebuild left out, loudly
// (W13: the reference drops lines silently; issue 16: the cause was cut
// off): one warning per dropped line, with its line number and the rule
// that dropped it, on every run.
func reportDropped(o *PanelOptions, m *matchproto.Materials) {
	for _, side := range []struct {
		label string
		v     *matchproto.Verified
	}{{"a", m.StatementA}, {"b", m.StatementB}} {
		if side.v.Discarded == 0 {
			continue
		}
		o.printf("warning: statement_%s.md: %s not rebuilt; the judges will not see %s:", side.label,
			plural.N(side.v.Discarded, "line"), plural.Noun(side.v.Discarded, "it", "them"))
		for _, d := range side.v.Analysis.Dropped {
			o.printf("warning: statement_%s.md:%d: dropped: %s", side.label, d.Line, strings.TrimPrefix(d.String(), fmt.Sprintf("line %d: ", d.Line)))
		}
	}
}

// parseFlags applies §5.3.
func (p *panel) parseFlags() error {
	all := p.roster.Labels()
	if strings.TrimSpace(p.o.Families) == "" {
		p.req = all
	} else {
		for _, f := range strings.Split(p.o.Families, ",") {
			f = strings.TrimSpace(f)
			switch {
			case f == "":
				continue
			case !slices.Contains(all, f):
				return refuse("unknown family '%s' (the roster declares: %s)", f, strings.Join(all, ", "))
			case slices.Contains(p.req, f):
				return refuse("family '%s' listed twice", f)
			}
			p.req = append(p.req, f)
		}
		if len(p.req) == 0 {
			return refuse("no families requested")
		}
	}
	var err error
	if p.specs, err = p.kv("--model-spec", p.o.ModelSpecs); err != nil {
		return err
	}
	if p.labels, err = p.kv("--model-label", p.o.ModelLabels); err != nil {
		return err
	}
	if p.override, err = p.kv("--runner", p.o.RunnerOverrides); err != nil {
		return err
	}
	for fam, tmpl := range p.override {
		// The reference splits every template for its independence check
		// before any seat runs and dies with a traceback when one does not
		// split; here that is a refusal naming the template.
		if _, err := shlex.Split(tmpl); err != nil {
			return refuse("--runner %s=%s: the template does not split into words (%v); quote it as a POSIX shell would", fam, tmpl, err)
		}
	}
	native, hasNative := p.roster.Native()
	if len(p.o.NativeVotes) > 0 && !hasNative {
		return refuse("--native-vote given but the roster declares no native family")
	}
	for fam, spec := range p.specs {
		if hasNative && fam == native.Label && p.override[fam] == "" {
			return refuse("--model-spec %s=%s: a native seat takes no model override", fam, spec)
		}
		if !matchproto.ModelRE.MatchString(spec) {
			return refuse("--model-spec %s=%q is not a plain model string (pattern %s)", fam, spec, matchproto.ModelRE.String())
		}
	}
	// Closes W26: an empty label would only fail at assembly.
	for fam, l := range p.labels {
		if matchproto.PyStrip(l) == "" {
			return refuse("--model-label %s= is empty; give a model label or drop the flag", fam)
		}
	}
	return nil
}

func (p *panel) kv(flag string, items []string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok {
			return nil, refuse("%s %q must look like family=value", flag, it)
		}
		k = strings.TrimSpace(k)
		if !slices.Contains(p.req, k) {
			return nil, refuse("%s %q refers to unknown family '%s' (requested: %s)", flag, it, k, strings.Join(p.req, ", "))
		}
		out[k] = v
	}
	return out, nil
}

// binary is the executable whose presence makes a CLI family usable.
func binary(runner string) string {
	if runner == "claude-cli" {
		return "claude"
	}
	return runner
}

func (p *panel) usable(f matchproto.Family) bool {
	if !f.Available {
		return false
	}
	if p.override[f.Label] != "" || f.Runner == "native" {
		return true
	}
	return p.lookPath(binary(f.Runner)) == nil
}

func (p *panel) lookPath(bin string) error {
	_, err := p.which(bin)
	return err
}

// which finds an executable as shutil.which does (LookPath in tests).
func (p *panel) which(bin string) (string, error) {
	if p.o.LookPath != nil {
		return p.o.LookPath(bin)
	}
	return execLookPath(bin, p.o.getenv("PATH"))
}

func (p *panel) unusableReason(f matchproto.Family) string {
	if !f.Available {
		if f.Notes != "" {
			return "declared unavailable in the roster: " + f.Notes
		}
		return "declared unavailable in the roster"
	}
	bin := binary(f.Runner)
	return fmt.Sprintf("declared available in the roster, but the %s runner's executable (%s) is not present on this machine; the seat is honestly absent, never substituted", f.Runner, bin)
}

func (p *panel) model(f matchproto.Family) string {
	if s := p.specs[f.Label]; s != "" {
		return s
	}
	return f.Model
}

// crossFamily is the not-degraded flow (§5.6).
func (p *panel) crossFamily() error {
	if err := p.checkNativeVote(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(p.o.OutDir, "raw"), 0o755); err != nil {
		return err
	}
	seats, dispatch := p.plan()
	independent, err := p.checkIndependence(dispatch)
	if err != nil {
		return err
	}
	possible := len(dispatch)
	for _, s := range seats {
		if s.record != nil {
			possible++
		}
	}
	p.tally.Needed = p.roster.Minimum
	for _, s := range seats {
		p.seatDone(s, 0)
	}
	if possible < p.roster.Minimum {
		return p.unreachable(seats, dispatch, possible, independent)
	}
	for _, f := range dispatch {
		p.o.Progress.Report(progress.Seat(f.Label, progress.SeatWaiting))
	}
	p.reportTally()
	results := make([]seat, len(dispatch))
	var wg sync.WaitGroup
	for i, f := range dispatch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = p.runFamily(f)
		}()
	}
	wg.Wait()
	seats = append(seats, results...)
	for _, s := range seats {
		if s.record != nil && s.override {
			independent = false
		}
	}
	return p.finish(seats, "cross_family", independent, nil)
}

// checkNativeVote applies §5.6 steps 1-2 to --native-vote.
func (p *panel) checkNativeVote() error {
	native, _ := p.roster.Native()
	if len(p.o.NativeVotes) > 1 {
		return refuse("a cross-family panel seats one native vote; %d files given", len(p.o.NativeVotes))
	}
	if len(p.o.NativeVotes) == 1 {
		switch {
		case !slices.Contains(p.req, native.Label):
			return refuse("--native-vote given but the native family %s is not requested", native.Label)
		case !native.Available:
			return refuse("--native-vote given but the native family %s is declared unavailable in the roster", native.Label)
		case p.override[native.Label] != "":
			return refuse("--native-vote and --runner %s=... both seat the native family; give one or the other", native.Label)
		}
	}
	return nil
}

// plan records unusable families absent up front (never dispatched),
// collects the native seat, and returns the families to dispatch.
func (p *panel) plan() ([]seat, []matchproto.Family) {
	native, hasNative := p.roster.Native()
	var seats []seat
	var dispatch []matchproto.Family
	for _, lbl := range p.req {
		f, _ := p.roster.Family(lbl)
		if why := p.absence(f); why != "" {
			seats = append(seats, seat{family: lbl, reason: why})
			continue
		}
		switch {
		case hasNative && lbl == native.Label && p.override[lbl] == "":
			if len(p.o.NativeVotes) == 0 {
				seats = append(seats, seat{family: lbl, reason: "native seat: no vote file injected (--native-vote)"})
				continue
			}
			seats = append(seats, p.injected(f, p.o.NativeVotes[0]))
		default:
			dispatch = append(dispatch, f)
		}
	}
	return seats, dispatch
}

// countUsable counts the usable families of the whole roster, which
// decides degradation (§5.4).
func (p *panel) countUsable() int {
	n := 0
	for _, f := range p.roster.Families {
		if p.usable(f) {
			n++
		}
	}
	return n
}

// absence is why a requested family's seat is absent before any judge
// runs ("" when it is not): not usable, or, preflight, a runner that
// cannot be started, never a run-time seat failure. Such a runner still
// counted as usable for degradation (§5.4 counts the CLI only), so the
// floor decides exactly as the protocol says. The panel and the doctor
// both decide by it.
func (p *panel) absence(f matchproto.Family) string {
	if !p.usable(f) {
		return p.unusableReason(f)
	}
	return p.runnerProblem(f)
}

// unreachable closes part of W26: when even a vote from every dispatchable
// seat could not reach the floor, calling the judges only spends their
// time (the reference runs them, then terminates the match). The report
// records the seats as not run.
func (p *panel) unreachable(seats []seat, dispatch []matchproto.Family, possible int, independent bool) error {
	for _, f := range dispatch {
		s := seat{family: f.Label, reason: fmt.Sprintf("not run: at most %s could vote (minimum %d), so no judge was called", plural.N(possible, "seat"), p.roster.Minimum)}
		seats = append(seats, s)
		p.seatDone(s, 0)
	}
	err := p.finish(seats, "cross_family", independent, nil)
	native, hasNative := p.roster.Native()
	if err != nil && hasNative && native.Available && slices.Contains(p.req, native.Label) && len(p.o.NativeVotes) == 0 && p.override[native.Label] == "" {
		err = &Error{Code: ExitInvalid, Msg: err.Error() + fmt.Sprintf("; the native seat %s had no reply: render with --render-prompt-only, have a host subagent answer judge_prompt.md and pass its reply with --native-vote", native.Label)}
	}
	return err
}

// execSignature identifies the program a seat really runs (§5.7).
func (p *panel) execSignature(f matchproto.Family) string {
	model := p.model(f)
	if tmpl := p.override[f.Label]; tmpl != "" {
		toks, _ := shlex.Split(tmpl) // parseFlags refused a template that does not split
		var keep []string
		for _, t := range toks {
			if !strings.Contains(t, "{prompt}") && !strings.Contains(t, "{system}") {
				keep = append(keep, t)
			}
		}
		return "runner_override\x00" + strings.Join(keep, "\x00")
	}
	switch f.Runner {
	case "kimi", "opencode", "gemini":
		script := p.launch(f.Runner).Script
		if script == "" {
			k, _ := runnerKindOf(f.Runner)
			script = k.name
		}
		if fi, err := os.Stat(script); err == nil {
			return fmt.Sprintf("roster\x00direct_runner\x00inode\x00%s\x00%s", fileID(fi), model)
		}
		real, err := filepath.Abs(script)
		if err == nil {
			if r, err := filepath.EvalSymlinks(real); err == nil {
				real = r
			}
		}
		return "roster\x00direct_runner\x00path\x00" + real + "\x00" + model
	case "codex", "claude-cli":
		return "roster\x00launcher\x00" + backend(f.Runner) + "\x00" + model
	}
	return "roster\x00" + f.Runner + "\x00" + model
}

// checkIndependence refuses two dispatched seats that run the same command,
// unless IDEA_PAIRWISE_ALLOW_STUB_RUNNERS=1, which records
// independent_runners=false instead.
func (p *panel) checkIndependence(fams []matchproto.Family) (bool, error) {
	bySig := map[string][]string{}
	for _, f := range fams {
		s := p.execSignature(f)
		bySig[s] = append(bySig[s], f.Label)
	}
	var shared []string
	for _, l := range bySig {
		if len(l) > 1 {
			slices.Sort(l)
			shared = append(shared, strings.Join(l, ", "))
		}
	}
	if len(shared) == 0 {
		return true, nil
	}
	slices.Sort(shared)
	if p.o.getenv("IDEA_PAIRWISE_ALLOW_STUB_RUNNERS") == "1" {
		return false, nil
	}
	return false, refuse("these family seats point at the same underlying command (%s share one command); one program voting under several family labels is not an independent panel. Set IDEA_PAIRWISE_ALLOW_STUB_RUNNERS=1 only for stub or test runs: the panel then records independent_runners=false", strings.Join(shared, "; "))
}

func backend(runner string) string {
	if runner == "claude-cli" {
		return "claude"
	}
	return "codex"
}

// familyCommand builds the argv of one attempt (§5.5), started as the
// reference starts it: `bash <script>` for the direct runners,
// `<python> <launcher>` for codex and claude-cli.
func (p *panel) familyCommand(f matchproto.Family, attemptDir string) (Command, string, error) {
	model := p.model(f)
	T := p.o.TimeoutSecs
	raw := filepath.Join(attemptDir, "vote_raw.txt")
	if tmpl := p.override[f.Label]; tmpl != "" {
		argv, err := expandTemplate(tmpl, p.promptP, p.systemP)
		if err != nil {
			return Command{}, f.Label + "/runner-override", err
		}
		return Command{Argv: argv, Env: childEnv(), Timeout: time.Duration(T+60) * time.Second}, f.Label + "/runner-override", nil
	}
	modelArgs := func() []string {
		if model != "default" {
			return []string{"--model", model, "--no-fallback"}
		}
		return nil
	}
	var argv []string
	label := f.Runner + "/" + model
	l := p.launch(f.Runner)
	if l.Problem != "" { // the preflight keeps such a seat from running
		return Command{}, label, fmt.Errorf("%s", l.Problem)
	}
	start := []string{l.Interpreter, l.Script}
	switch f.Runner {
	case "kimi":
		argv = append([]string{start[0], start[1], "--prompt-file", p.promptP, "--system-prompt-file", p.systemP, "--out", raw,
			"--timeout-secs", strconv.Itoa(T), "--max-attempts", "1", "--raw-out", filepath.Join(attemptDir, "kimi_stream_raw.txt")}, modelArgs()...)
	case "opencode":
		argv = append([]string{start[0], start[1], "--prompt-file", p.promptP, "--system-prompt-file", p.systemP, "--out", raw, "--max-attempts", "1"}, modelArgs()...)
	case "gemini":
		argv = append([]string{start[0], start[1], "--prompt-file", p.promptP, "--system-prompt-file", p.systemP, "--out", raw}, modelArgs()...)
	case "codex", "claude-cli":
		b := backend(f.Runner)
		label = b + "/" + model
		argv = []string{start[0], start[1], "--out-dir", attemptDir, "--system", p.systemP, "--prompt", p.promptP,
			"--models", b + "/" + model, "--backend-output", b + "=vote_raw.txt", "--timeout-secs", strconv.Itoa(T)}
	default:
		return Command{}, "", fmt.Errorf("runner %q cannot be dispatched", f.Runner)
	}
	return Command{Argv: argv, Env: childEnv(), Timeout: time.Duration(T+120) * time.Second, ReplyFile: raw}, label, nil
}

// runFamily runs one seat with one retry (§4.7).
func (p *panel) runFamily(f matchproto.Family) seat {
	s := seat{key: f.Label, family: f.Label, override: p.override[f.Label] != ""}
	var attempts []any
	var failures []string
	launcher := (f.Runner == "codex" || f.Runner == "claude-cli") && !s.override
	label := ""
	start := time.Now()
	for n := 1; n <= MaxAttempts; n++ {
		running := progress.Seat(f.Label, progress.SeatRunning)
		running.Attempt = n
		if n > 1 {
			running.Reason = "retry after: " + failures[len(failures)-1]
		}
		p.o.Progress.Report(running)
		dir := filepath.Join(p.o.OutDir, "raw", f.Label, "attempt"+strconv.Itoa(n))
		rec, l, argv, exit, fail := p.attempt(f, dir)
		if label == "" {
			label = l
		}
		// As the reference: every attempt whose launcher ran (exit status
		// known) may name the model in meta.json, failed ones too, and the
		// label carries over to a later attempt.
		if launcher && exit != nil {
			label = metaModel(dir, label)
		}
		a := matchproto.Object{{Key: "attempt", Value: n}, {Key: "argv", Value: argv}}
		if exit != nil {
			a = append(a, matchproto.Member{Key: "exit_code", Value: *exit})
		}
		if fail == "" {
			attempts = append(attempts, append(a, matchproto.Member{Key: "ok", Value: true}))
			source := "runner"
			if s.override {
				source = "override"
			}
			s.record = p.voteRecord(f.Label, label, rec, matchproto.Object{{Key: "attempts", Value: attempts}, {Key: "source", Value: source}}, 0)
			p.seatDone(s, time.Since(start))
			return s
		}
		attempts = append(attempts, append(a, matchproto.Member{Key: "failure", Value: fail}))
		failures = append(failures, fail)
		if p.ctx.Err() != nil { // interrupted: no retry
			break
		}
	}
	s.reason = strings.Join(failures, "; ")
	p.seatDone(s, time.Since(start))
	return s
}

// seatDone reports a seat that has its outcome: voted (and the tally
// moves), failed after running, or absent without running.
func (p *panel) seatDone(s seat, took time.Duration) {
	name := s.family
	if s.n > 0 {
		name = fmt.Sprintf("%s seat %d", s.family, s.n)
	}
	e := progress.Seat(name, progress.SeatAbsent)
	e.Reason, e.Elapsed = s.reason, took
	if took > 0 {
		e.State = progress.SeatFailed
	}
	if s.record != nil {
		v, _ := s.record.Get("vote")
		e.State, e.Vote, e.Reason = progress.SeatVoted, fmt.Sprint(v), ""
		p.tallyMu.Lock()
		switch e.Vote {
		case "a":
			p.tally.A++
		case "b":
			p.tally.B++
		default:
			p.tally.Tie++
		}
		p.tallyMu.Unlock()
	}
	p.o.Progress.Report(e)
	if s.record != nil {
		p.reportTally()
	}
}

// reportTally reports the votes so far.
func (p *panel) reportTally() {
	p.tallyMu.Lock()
	t := p.tally
	p.tallyMu.Unlock()
	p.o.Progress.Report(progress.Event{Op: progress.OpPanel, Kind: progress.KindTally, Tally: &t})
}

// attempt runs one invocation and returns the payload or a failure reason.
func (p *panel) attempt(f matchproto.Family, dir string) (matchproto.Object, string, []any, *int, string) {
	if rel, err := filepath.Rel(p.o.OutDir, dir); err != nil || contained(p.o.OutDir, rel) != nil {
		return nil, "", []any{}, nil, fmt.Sprintf("invocation error: %s leads outside the panel directory %s", dir, p.o.OutDir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", []any{}, nil, "invocation error: " + err.Error()
	}
	cmd, label, err := p.familyCommand(f, dir)
	argv := make([]any, len(cmd.Argv))
	for i, a := range cmd.Argv {
		argv[i] = a
	}
	if err != nil {
		return nil, "", argv, nil, "invocation error: " + err.Error()
	}
	cmd.Label = "judge " + f.Label
	if p.o.Stdin != nil {
		cmd.Stdin = p.o.Stdin
	}
	out := p.o.Runner.Run(p.ctx, cmd)
	if tail := out.Stderr; len(tail) > 0 {
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		_ = atomicfile.WriteFile(filepath.Join(dir, "stderr_tail.txt"), tail, 0o644)
	}
	switch {
	case out.Interrupted:
		return nil, label, argv, nil, p.interruption() + "; the judge was stopped before it replied"
	case out.TimedOut:
		return nil, label, argv, nil, fmt.Sprintf("timeout after %ds (limit %ds = --timeout-secs plus the runner's grace)", p.o.TimeoutSecs, int(cmd.Timeout.Seconds()))
	case out.Err != nil:
		return nil, label, argv, nil, "invocation error: " + out.Err.Error()
	}
	exit := out.ExitCode
	if exit != 0 {
		return nil, label, argv, &exit, fmt.Sprintf("runner exit code %d", exit)
	}
	reply := out.Stdout
	if cmd.ReplyFile != "" {
		var err error
		if reply, err = readlimit.Read(cmd.ReplyFile, "judge reply", maxOutput); readlimit.Refused(err) {
			return nil, label, argv, &exit, err.Error()
		}
	} else {
		_ = atomicfile.WriteFile(filepath.Join(dir, "vote_raw.txt"), reply, 0o644)
	}
	payload, fail := p.parseReply(reply)
	return payload, label, argv, &exit, fail
}

// parseReply extracts and validates a vote from raw reply bytes.
func (p *panel) parseReply(reply []byte) (matchproto.Object, string) {
	if !isUTF8(reply) {
		return nil, "reply is not UTF-8 text"
	}
	text := string(reply)
	if strings.TrimSpace(text) == "" {
		return nil, "empty output"
	}
	o, err := matchproto.ExtractVote(text, matchproto.ExampleVote())
	if err != nil {
		return nil, err.Error()
	}
	if ps := vm.ValidateVotePayload(o, ""); len(ps) > 0 {
		return nil, "invalid vote payload: " + vm.Join(ps)
	}
	return o, ""
}

// metaModel is the reference's model_label_from_meta: the first truthy
// "model" among the entries of <attempt>/meta.json's "agents" list (or,
// when that is empty or missing, "results"), rendered as Python's str();
// fallback when there is none. Where Python would crash (meta.json not an
// object, not UTF-8) the fallback stays.
func metaModel(dir, fallback string) string {
	b, err := readlimit.ReadFile(filepath.Join(dir, "meta.json"), readlimit.Small)
	if err != nil {
		return fallback
	}
	d, err := matchproto.Decode(b)
	if err != nil {
		return fallback
	}
	meta, ok := d.Value.(matchproto.Object)
	if !ok {
		return fallback
	}
	// Object.Get reads as Python's json module: the last of repeated keys.
	entries, _ := meta.Get("agents")
	if !pyTruthy(entries) {
		entries, _ = meta.Get("results")
	}
	list, _ := entries.([]any)
	for _, e := range list {
		if eo, ok := e.(matchproto.Object); ok {
			if m, _ := eo.Get("model"); pyTruthy(m) {
				if s, ok := pyStr(m); ok {
					return s
				}
				return fallback
			}
		}
	}
	return fallback
}

// pyTruthy is Python's bool() of a decoded JSON value.
func pyTruthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		return err != nil || f != 0
	case []any:
		return len(t) > 0
	case matchproto.Object:
		return len(t) > 0
	}
	return true
}

// pyStr is Python's str() of a decoded JSON scalar; containers are not
// rendered (ok false).
func pyStr(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool, json.Number:
		// str() of a bool, an int or a float is its repr.
		return pyfmt.Value(t), true
	}
	return "", false
}

// voteRecord builds the stored record (§4.8).
func (p *panel) voteRecord(family, model string, payload, collection matchproto.Object, seatN int) matchproto.Object {
	if l := p.labels[family]; l != "" {
		model = l
	}
	c, dropped := p.creditable(matchproto.CleanVote(payload))
	if dropped > 0 {
		collection = append(collection, matchproto.Member{Key: "uncredited_arguments", Value: dropped})
	}
	rec := matchproto.Object{{Key: "reviewer_family", Value: family}, {Key: "model", Value: model}}
	rec = append(rec, c...)
	rec = append(rec, matchproto.Member{Key: "commitment_hash", Value: p.m.Hash},
		matchproto.Member{Key: "collected_at", Value: matchproto.FormatTime(p.o.Now.now())},
		matchproto.Member{Key: "collection", Value: collection})
	if seatN > 0 {
		rec = append(rec, matchproto.Member{Key: "seat", Value: seatN})
	}
	return rec
}

// creditable drops the judge's anchored arguments whose anchor_ref is not
// evidence on either card: the reference stores any string (W3), so a
// judge could credit a source no card cites. The number dropped is kept in
// the record's collection.
func (p *panel) creditable(c matchproto.Object) (matchproto.Object, int) {
	allowed := matchproto.SummaryEvidence(p.m.SummaryA)
	for ev := range matchproto.SummaryEvidence(p.m.SummaryB) {
		allowed[ev] = true
	}
	args, _ := c.Get("anchored_arguments")
	kept := []any{}
	dropped := 0
	for _, a := range args.([]any) {
		ref, _ := a.(matchproto.Object).Get("anchor_ref")
		if s, _ := ref.(string); allowed[s] {
			kept = append(kept, a)
		} else {
			dropped++
		}
	}
	return c.Set("anchored_arguments", kept), dropped
}

// checkEcho verifies an injected reply's judge_prompt_sha256 (§4.9).
func (p *panel) checkEcho(o matchproto.Object) string {
	echo, ok := o.Get("judge_prompt_sha256")
	if !ok {
		return "reply carries no judge_prompt_sha256 echo; the native seat must copy the digest from the prompt's binding block"
	}
	if echo != p.prompt.Digest {
		return fmt.Sprintf("reply echoes judge_prompt_sha256 %v but the current rendering is %s; the reply was formed against a different prompt", echo, p.prompt.Digest)
	}
	return ""
}

// injected collects the cross-family native vote (§4.9).
func (p *panel) injected(f matchproto.Family, file string) seat {
	s := seat{key: f.Label, family: f.Label}
	b, err := readlimit.ReadFile(file, readlimit.Small)
	if err != nil {
		s.reason = "cannot read injected vote file: " + err.Error()
		return s
	}
	if !isUTF8(b) {
		s.reason = "cannot read injected vote file as UTF-8 text"
		return s
	}
	o, err := matchproto.ExtractVote(matchproto.UniversalNewlines(string(b)), matchproto.ExampleVote())
	if err != nil {
		s.reason = "no JSON object found in injected vote file"
		return s
	}
	if ps := vm.ValidateVotePayload(o, ""); len(ps) > 0 {
		s.reason = "invalid vote payload: " + vm.Join(ps)
		return s
	}
	if r := p.checkEcho(o); r != "" {
		s.reason = r
		return s
	}
	// Unlike the reference (W12), the cross-family native seat also records
	// the digest of the reply it was given.
	coll := matchproto.Object{{Key: "source", Value: "injected"}, {Key: "vote_file", Value: file}, {Key: "reply_sha256", Value: digest.Of(b)},
		{Key: "attempts", Value: []any{matchproto.Object{{Key: "attempt", Value: 1}, {Key: "ok", Value: true}}}}}
	s.record = p.voteRecord(f.Label, f.Label+"/"+f.Model, o, coll, 0)
	return s
}

// finish stores the votes, writes the report and decides validity.
func (p *panel) finish(seats []seat, mode string, independent bool, extra matchproto.Object) error {
	votesDir := filepath.Join(p.o.OutDir, "votes")
	var votes, absent []seat
	for _, s := range seats {
		if s.record != nil {
			votes = append(votes, s)
		} else {
			absent = append(absent, s)
		}
	}
	for _, s := range votes {
		if err := os.MkdirAll(votesDir, 0o755); err != nil {
			return err
		}
		path := filepath.Join(votesDir, s.key+".json")
		if err := atomicfile.WriteFile(path, matchproto.Marshal(s.record), 0o644); err != nil {
			return err
		}
		p.o.printf("vote collected: %s -> %s", s.key, filepath.Join("votes", s.key+".json"))
	}
	total := p.m.StatementA.Discarded + p.m.StatementB.Discarded
	for _, s := range votes {
		// W15: judges read the rebuilt statements, which hold no unanchored
		// argument, so an honest judge reports 0 whatever the parser dropped.
		if d, _ := s.record.Get("unanchored_arguments_discarded"); fmt.Sprint(d) != "0" {
			p.o.printf("warning: %s reported %v unanchored discards, but the rebuilt statements it read hold none (the parser dropped %d before the panel); self-report and mechanism disagree", s.key, d, total)
		}
	}
	if mode == "cross_family" {
		for _, s := range absent {
			p.o.printf("family absent: %s (%s)", s.family, s.reason)
		}
	}
	valid := len(votes) >= p.roster.Minimum && p.ctx.Err() == nil
	p.votes = votes
	if err := p.writeReport(absent, mode, independent, valid, extra); err != nil {
		return err
	}
	switch {
	case p.ctx.Err() != nil:
		p.o.Progress.Report(progress.Done(progress.OpPanel, "interrupted"))
	case valid:
		p.o.Progress.Report(progress.Done(progress.OpPanel, "valid"))
	default:
		p.o.Progress.Report(progress.Done(progress.OpPanel, "invalid"))
	}
	if p.ctx.Err() != nil {
		return &Error{Code: ExitInvalid, Msg: fmt.Sprintf("the panel is invalid: %s records the interruption; run the panel again", filepath.Join(p.o.OutDir, "panel_run_report.json"))}
	}
	if !valid {
		if mode == "single_family" {
			return &Error{Code: ExitInvalid, Msg: fmt.Sprintf("error: only %d of %d native subagent seats produced a valid vote (minimum %d); panel is invalid and the match is terminated", len(votes), len(p.o.NativeVotes), p.roster.Minimum)}
		}
		return &Error{Code: ExitInvalid, Msg: fmt.Sprintf("error: only %d of the requested families voted (minimum %d); panel is invalid and the match is terminated", len(votes), p.roster.Minimum)}
	}
	if mode == "single_family" {
		p.o.printf("panel valid: %d native subagent seat votes collected (single-family, degraded)", len(votes))
	} else {
		p.o.printf("panel valid: %d family votes collected", len(votes))
	}
	return nil
}

// writeReport writes panel_run_report.json (§5.9).
func (p *panel) writeReport(absent []seat, mode string, independent, valid bool, extra matchproto.Object) error {
	collected := matchproto.Object{}
	var present []string
	var recon []any
	sort.Slice(p.votes, func(i, j int) bool { return p.votes[i].key < p.votes[j].key })
	total := p.m.StatementA.Discarded + p.m.StatementB.Discarded
	for _, s := range p.votes {
		collected = append(collected, matchproto.Member{Key: s.key, Value: "votes/" + s.key + ".json"})
		if !slices.Contains(present, s.family) {
			present = append(present, s.family)
		}
		d, _ := s.record.Get("unanchored_arguments_discarded")
		recon = append(recon, matchproto.Object{{Key: "voter", Value: s.key}, {Key: "judge_reported", Value: d}, {Key: "parser_counted", Value: total},
			{Key: "judge_visible", Value: 0}, {Key: "agree", Value: fmt.Sprint(d) == "0"}})
	}
	slices.Sort(present)
	sort.SliceStable(absent, func(i, j int) bool { return absent[i].family < absent[j].family })
	var ab []any
	for _, s := range absent {
		ab = append(ab, matchproto.Object{{Key: "family", Value: s.family}, {Key: "reason", Value: s.reason}})
	}
	var rosterPath any
	if p.source.Path != "" {
		rosterPath = p.source.Path
	}
	rep := matchproto.Object{
		{Key: "roster", Value: matchproto.Object{{Key: "source", Value: p.source.Source}, {Key: "path", Value: rosterPath}}},
		{Key: "families_requested", Value: p.req},
		{Key: "votes_collected", Value: collected},
		{Key: "families_present", Value: orEmpty(present)},
		{Key: "absent", Value: orEmptyAny(ab)},
		{Key: "independence", Value: mode},
		{Key: "independent_runners", Value: independent},
		{Key: "commitment_hash", Value: p.m.Hash},
		{Key: "judge_prompt_sha256", Value: p.prompt.Digest},
		{Key: "word_cap", Value: p.o.WordCap},
		{Key: "min_families", Value: p.roster.Minimum},
		{Key: "panel_valid", Value: valid},
		{Key: "unanchored_arguments_discarded_by_parser", Value: matchproto.Object{{Key: "statement_a", Value: p.m.StatementA.Discarded}, {Key: "statement_b", Value: p.m.StatementB.Discarded}, {Key: "total", Value: total}}},
		{Key: "discard_reconciliation", Value: orEmptyAny(recon)},
		{Key: "started_at", Value: p.started},
		{Key: "finished_at", Value: matchproto.FormatTime(p.o.Now.now())},
	}
	rep = append(rep, extra...)
	if p.ctx.Err() != nil {
		// Beyond the reference: a run stopped by a signal says so, instead
		// of leaving a half-run panel unexplained.
		rep = append(rep, matchproto.Member{Key: "interrupted", Value: p.interruption()})
	}
	return atomicfile.WriteFile(filepath.Join(p.o.OutDir, "panel_run_report.json"), matchproto.Marshal(rep), 0o644)
}

// interruption says why the context ended: the CLI cancels it with the
// signal as its cause ("interrupted by SIGTERM").
func (p *panel) interruption() string {
	cause := context.Cause(p.ctx)
	if cause == nil || cause == context.Canceled {
		return "interrupted"
	}
	return cause.Error()
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func orEmptyAny(s []any) []any {
	if s == nil {
		return []any{}
	}
	return s
}
