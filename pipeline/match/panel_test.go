package match

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/matchproto"
	vm "github.com/nullius-dev/nullius/validators/match"
)

func overrides(modes map[string]string) []string {
	var out []string
	for _, f := range []string{"claude", "gpt", "glm", "kimi"} {
		if m, ok := modes[f]; ok {
			out = append(out, f+"=stub "+m+" {prompt}")
		}
	}
	return out
}

// test_full_panel_collects_four_family_votes and the assembly after it.
func TestFullPanel(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.RunnerOverrides = overrides(map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b", "kimi": "vote:tie"})
	o.ModelLabels = []string{"gpt=stub-model-for-test"}
	must(t, RunPanel(context.Background(), o))
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	if get(rep, "panel_valid") != true || get(rep, "independence") != "cross_family" || get(rep, "independent_runners") != false {
		t.Errorf("report: %s", matchproto.Marshal(rep))
	}
	if get(rep, "roster", "source") != "explicit" {
		t.Error("roster source")
	}
	gpt := readObj(t, filepath.Join(dir, "panel", "votes", "gpt.json"))
	if get(gpt, "model") != "stub-model-for-test" || get(gpt, "vote") != "a" || gpt.Has("extra") || gpt.Has("seat") {
		t.Errorf("gpt record: %s", matchproto.Marshal(gpt))
	}
	// W3: the stub cites artifact://x/y.json, which no card holds.
	if args, _ := get(gpt, "anchored_arguments").([]any); len(args) != 0 || fmt.Sprint(get(gpt, "collection", "uncredited_arguments")) != "1" {
		t.Errorf("uncited evidence credited: %s", matchproto.Marshal(gpt))
	}
	a, err := Assemble(AssembleOptions{Commitment: filepath.Join(dir, "mat", "commitment.json"), VotesDir: filepath.Join(dir, "panel", "votes"),
		MaterialsDir: filepath.Join(dir, "mat"), CampaignDir: filepath.Join(dir, "camp"), CampaignID: "3b8e1f70", IdeaA: "1f6c9d5e", IdeaB: "2a7d0e6f"})
	must(t, err)
	if a.Tier != 3 || get(a.Artifact, "outcome", "winner") != "a" || get(a.Artifact, "outcome", "vote_margin") != 0.25 {
		t.Errorf("artifact outcome %v tier %d", get(a.Artifact, "outcome"), a.Tier)
	}
	if ps := vm.ValidateMatch(roundTrip(t, a.Artifact)); len(ps) != 0 {
		t.Error(vm.Messages(ps))
	}
}

func roundTrip(t *testing.T, v any) any {
	d, err := matchproto.Decode(matchproto.Marshal(v))
	must(t, err)
	return d.Value
}

func TestPanelSeats(t *testing.T) {
	tests := []struct {
		name    string
		modes   map[string]string
		env     map[string]string
		code    int
		present []string
		check   func(t *testing.T, dir string, rep matchproto.Object)
	}{
		{"native seat without vote file is absent", map[string]string{"gpt": "vote:a", "glm": "vote:b", "kimi": "vote:a"}, nil, 0, []string{"glm", "gpt", "kimi"},
			func(t *testing.T, dir string, rep matchproto.Object) {
				if !strings.Contains(string(matchproto.Marshal(rep)), "no vote file injected") {
					t.Error("claude reason")
				}
			}},
		{"absent family degrades to three", map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b", "kimi": "garbage"}, nil, 0, []string{"claude", "glm", "gpt"},
			func(t *testing.T, dir string, rep matchproto.Object) {
				if !strings.Contains(string(matchproto.Marshal(rep)), "no JSON object found in output; no JSON object found in output") {
					t.Error("kimi reason")
				}
			}},
		{"panel invalid below three families", map[string]string{"gpt": "garbage", "glm": "garbage", "kimi": "vote:a", "claude": "vote:a"}, nil, ExitInvalid, []string{"claude", "kimi"},
			func(t *testing.T, dir string, rep matchproto.Object) {
				if get(rep, "panel_valid") != false {
					t.Error("panel_valid")
				}
			}},
		{"retry recovers a flaky family", map[string]string{"claude": "vote:a", "gpt": "flaky:MARK", "glm": "vote:b", "kimi": "vote:a"}, nil, 0, []string{"claude", "glm", "gpt", "kimi"},
			func(t *testing.T, dir string, rep matchproto.Object) {
				g := readObj(t, filepath.Join(dir, "panel", "votes", "gpt.json"))
				if at, _ := get(g, "collection", "attempts").([]any); len(at) != 2 {
					t.Errorf("attempts %v", get(g, "collection"))
				}
			}},
		{"timeout and exit code are seat failures", map[string]string{"claude": "vote:a", "gpt": "timeout", "glm": "fail", "kimi": "vote:a"}, nil, ExitInvalid, []string{"claude", "kimi"},
			func(t *testing.T, dir string, rep matchproto.Object) {
				s := string(matchproto.Marshal(rep))
				if !strings.Contains(s, "timeout after 900s (limit 960s") || !strings.Contains(s, "runner exit code 1") {
					t.Error(s)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := setup(t)
			for k, v := range tt.modes {
				tt.modes[k] = strings.ReplaceAll(v, "MARK", filepath.Join(dir, "marker"))
			}
			o := opts(dir, &stubRunner{}, tt.env)
			o.RunnerOverrides = overrides(tt.modes)
			err := RunPanel(context.Background(), o)
			if ExitCode(err) != tt.code && !(err == nil && tt.code == 0) {
				t.Fatalf("err %v, want exit %d", err, tt.code)
			}
			rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
			var present []string
			for _, p := range get(rep, "families_present").([]any) {
				present = append(present, p.(string))
			}
			if !slices.Equal(present, tt.present) {
				t.Errorf("present %v, want %v", present, tt.present)
			}
			tt.check(t, dir, rep)
		})
	}
}

func TestInjectedNativeVote(t *testing.T) {
	for _, tt := range []struct{ name, echo, want string }{
		{"echo", "", ""},
		{"no echo", "none", "no judge_prompt_sha256 echo"},
		{"wrong echo", "sha256:" + strings.Repeat("0", 64), "formed against a different prompt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := setup(t)
			o := opts(dir, &stubRunner{}, nil)
			o.RenderOnly = true
			must(t, RunPanel(context.Background(), o))
			o.RenderOnly = false
			o.NativeVotes = []string{nativeReply(t, dir, "claude.txt", "b", tt.echo)}
			o.RunnerOverrides = overrides(map[string]string{"gpt": "vote:a", "glm": "vote:b", "kimi": "vote:a"})
			must(t, RunPanel(context.Background(), o))
			rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
			_, statErr := os.Stat(filepath.Join(dir, "panel", "votes", "claude.json"))
			if tt.want == "" {
				c := readObj(t, filepath.Join(dir, "panel", "votes", "claude.json"))
				if get(c, "model") != "claude/fable" || get(c, "collection", "source") != "injected" || c.Has("judge_prompt_sha256") {
					t.Errorf("claude record %s", matchproto.Marshal(c))
				}
			} else if statErr == nil || !strings.Contains(rep, tt.want) {
				t.Errorf("want absent claude with %q: %s", tt.want, rep)
			}
		})
	}
}

// test_native_vote_refused_when_materials_changed_since_render_prompt_only.
func TestStalePromptRefusesNativeVote(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.RenderOnly = true
	must(t, RunPanel(context.Background(), o))
	reply := nativeReply(t, dir, "claude.txt", "a", "")
	st := filepath.Join(dir, "mat", "statement_a.md")
	b, _ := os.ReadFile(st)
	must(t, os.WriteFile(st, []byte(strings.Replace(string(b), "directly.", "directly and well.", 1)), 0o644))
	o.RenderOnly = false
	o.NativeVotes = []string{reply}
	o.RunnerOverrides = overrides(map[string]string{"gpt": "vote:a", "glm": "vote:b", "kimi": "vote:a"})
	wantErr(t, RunPanel(context.Background(), o), ExitRefused, "reflects an earlier rendering")
	if _, err := os.Stat(filepath.Join(dir, "panel", "votes")); err == nil {
		t.Error("votes written")
	}
}

func TestPanelRefusals(t *testing.T) {
	tests := []struct {
		name string
		mod  func(dir string, o *PanelOptions)
		want string
	}{
		{"unknown family", func(dir string, o *PanelOptions) { o.Families = "claude,foo" }, "the roster declares"},
		{"family twice", func(dir string, o *PanelOptions) { o.Families = "gpt,gpt" }, "listed twice"},
		{"shared command without hatch", func(dir string, o *PanelOptions) {
			o.Getenv = func(string) string { return "" }
			o.RunnerOverrides = []string{"gpt=stub vote:a", "glm=stub vote:a", "kimi=stub vote:a"}
		}, "same underlying command"},
		{"two native votes", func(dir string, o *PanelOptions) { o.NativeVotes = []string{"x", "y"} }, "seats one native vote"},
		{"native vote and override", func(dir string, o *PanelOptions) {
			o.NativeVotes = []string{"x"}
			o.RunnerOverrides = append(o.RunnerOverrides, "claude=stub vote:a")
		}, "give one or the other"},
		{"native model spec", func(dir string, o *PanelOptions) { o.ModelSpecs = []string{"claude=opus"} }, "a native seat takes no model override"},
		{"bad model spec", func(dir string, o *PanelOptions) { o.ModelSpecs = []string{"gpt=<x>"} }, "plain model string"},
		{"kv without =", func(dir string, o *PanelOptions) { o.ModelLabels = []string{"gpt"} }, "must look like family=value"},
		{"kv unknown family", func(dir string, o *PanelOptions) { o.ModelLabels = []string{"foo=x"} }, "unknown family"},
		{"empty model label", func(dir string, o *PanelOptions) { o.ModelLabels = []string{"gpt="} }, "is empty"},
		{"out-dir required", func(dir string, o *PanelOptions) { o.OutDir = "" }, "--out-dir is required"},
		{"placeholder in statement", func(dir string, o *PanelOptions) {
			p := filepath.Join(dir, "mat", "statement_a.md")
			b, _ := os.ReadFile(p)
			_ = os.WriteFile(p, []byte(strings.Replace(string(b), "directly.", "directly {{STATEMENT_B}}.", 1)), 0o644)
		}, "placeholder"},
		{"statement without hash line", func(dir string, o *PanelOptions) {
			_ = os.WriteFile(filepath.Join(dir, "mat", "statement_a.md"), []byte("Just prose."), 0o644)
		}, "does not open with"},
		{"statement with a BOM", func(dir string, o *PanelOptions) {
			p := filepath.Join(dir, "mat", "statement_a.md")
			b, _ := os.ReadFile(p)
			_ = os.WriteFile(p, append([]byte("\ufeff"), b...), 0o644)
		}, "byte-order mark"},
		{"statement for the wrong node", func(dir string, o *PanelOptions) {
			b, _ := os.ReadFile(filepath.Join(dir, "mat", "statement_a.md"))
			_ = os.WriteFile(filepath.Join(dir, "mat", "statement_b.md"), b, 0o644)
		}, "argues for node 1f6c9d5e but card_summary_b.md is node 2a7d0e6f"},
		{"mismatched hash", func(dir string, o *PanelOptions) {
			p := filepath.Join(dir, "mat", "statement_b.md")
			b, _ := os.ReadFile(p)
			_ = os.WriteFile(p, []byte(strings.Replace(string(b), "sha256:73d6", "sha256:0000", 1)), 0o644)
		}, "mismatched materials"},
		{"missing materials", func(dir string, o *PanelOptions) { _ = os.Remove(filepath.Join(dir, "mat", "card_summary_b.md")) }, "materials file missing"},
		{"roster collision", func(dir string, o *PanelOptions) {
			_ = os.WriteFile(o.Roster, []byte(strings.Replace(rosterJSON, `"glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}, "notes": "via opencode"}`, `"glm": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}}`, 1)), 0o644)
		}, "identical (runner, model) pair"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := setup(t)
			r := &stubRunner{}
			o := opts(dir, r, nil)
			o.RunnerOverrides = overrides(map[string]string{"gpt": "vote:a", "glm": "vote:b", "kimi": "vote:a"})
			tt.mod(dir, &o)
			err := RunPanel(context.Background(), o)
			wantErr(t, err, 0, tt.want)
			if len(r.calls) != 0 {
				t.Errorf("a judge ran before the refusal: %v", r.calls)
			}
			if _, err := os.Stat(filepath.Join(dir, "panel", "votes")); err == nil {
				t.Error("votes written")
			}
		})
	}
}

// test_failed_override_seat_does_not_taint_independent_runners and
// test_voted_override_seat_still_taints_independent_runners, with the real
// runners' executables "present" and their argv checked.
func TestIndependentRunnersTaint(t *testing.T) {
	for _, tt := range []struct {
		name    string
		gpt     string
		native  bool
		want    bool
		present []string
	}{
		{"failed override does not taint", "garbage", true, true, []string{"claude", "glm", "kimi"}},
		{"voted override taints", "vote:a", false, false, []string{"glm", "gpt", "kimi"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := setup(t)
			r := &stubRunner{byBin: map[string]string{"run_kimi.sh": "vote:a", "run_opencode.sh": "vote:b"}}
			scripts := runnerFiles(t, dir, "bin/run_kimi.sh", "bin/run_opencode.sh")
			env := map[string]string{"IDEA_PAIRWISE_KIMI_RUNNER": scripts[0], "IDEA_PAIRWISE_OPENCODE_RUNNER": scripts[1]}
			o := opts(dir, r, env)
			o.LookPath = func(bin string) (string, error) {
				if bin == "kimi" || bin == "opencode" || bin == "bash" {
					return "/usr/bin/" + bin, nil
				}
				return "", os.ErrNotExist
			}
			o.RenderOnly = true
			must(t, RunPanel(context.Background(), o))
			o.RenderOnly = false
			if tt.native {
				o.NativeVotes = []string{nativeReply(t, dir, "claude.txt", "a", "")}
			}
			o.RunnerOverrides = []string{"gpt=stub " + tt.gpt + " {prompt}"}
			must(t, RunPanel(context.Background(), o))
			rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
			if get(rep, "independent_runners") != tt.want {
				t.Errorf("independent_runners = %v", get(rep, "independent_runners"))
			}
			var present []string
			for _, p := range get(rep, "families_present").([]any) {
				present = append(present, p.(string))
			}
			if !slices.Equal(present, tt.present) {
				t.Errorf("present %v", present)
			}
			var kimiArgv []string
			for _, c := range r.calls {
				if strings.HasSuffix(scriptOf(c), "run_kimi.sh") {
					kimiArgv = c
				}
			}
			want := []string{"--prompt-file", filepath.Join(dir, "panel", "judge_prompt.md"), "--system-prompt-file", filepath.Join(dir, "panel", "judge_system.md"), "--out"}
			if len(kimiArgv) < 7 || kimiArgv[0] != "bash" || !slices.Equal(kimiArgv[2:7], want) || !slices.Contains(kimiArgv, "--raw-out") || !slices.Contains(kimiArgv, "--no-fallback") {
				t.Errorf("kimi argv %q", kimiArgv)
			}
		})
	}
}

func TestDegradedFlow(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	// PATH has no CLI: ROSTER degrades (claude native is the only usable).
	err := RunPanel(context.Background(), o)
	wantErr(t, err, ExitDegraded, "native_subagents")
	wantErr(t, err, ExitDegraded, "--native-vote")
	rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	for _, s := range []string{`"independence": "single_family"`, `"panel_valid": false`, `"native_family": "claude"`, "runner's executable (codex)", "no local access on this machine"} {
		if !strings.Contains(rep, s) {
			t.Errorf("report lacks %s", s)
		}
	}
	// With overrides the degraded flow refuses.
	o.RunnerOverrides = []string{"claude=stub vote:a {prompt}"}
	wantErr(t, RunPanel(context.Background(), o), ExitRefused, "take no --runner")
	o.RunnerOverrides = nil
	// CRLF reply is hashed as written; non-UTF-8 fails that seat only.
	o.Roster = filepath.Join(dir, "builtin-like.json")
	must(t, os.WriteFile(o.Roster, []byte(`{"version": 1, "families": {"host": {"runner": "native", "models": {"default": "host-subagent"}}, "gemini": {"runner": "gemini", "available": false, "notes": "no access"}}}`), 0o644))
	s1 := nativeReply(t, dir, "s1.txt", "a", "")
	s2 := nativeReply(t, dir, "s2.txt", "a", "")
	b, _ := os.ReadFile(s2)
	crlf := strings.ReplaceAll(string(b), "\n", "\r\n")
	must(t, os.WriteFile(s2, []byte(crlf), 0o644))
	bad := filepath.Join(dir, "bad.txt")
	must(t, os.WriteFile(bad, []byte{0xff, 0xfe, 0}, 0o644))
	o.NativeVotes = []string{s1, s2, bad}
	wantErr(t, RunPanel(context.Background(), o), ExitInvalid, "only 2 of 3 native subagent seats")
	rep = string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	if !strings.Contains(rep, "not UTF-8 text") || !strings.Contains(rep, `"family": "gemini"`) {
		t.Error(rep)
	}
	seat2 := readObj(t, filepath.Join(dir, "panel", "votes", "host_seat_2.json"))
	if get(seat2, "collection", "reply_sha256") != digest.Of([]byte(crlf)) {
		t.Error("reply_sha256 is not over the raw bytes")
	}
	// W12: one extra space does not make a copied reply independent.
	b1, _ := os.ReadFile(s1)
	spaced := filepath.Join(dir, "spaced.txt")
	must(t, os.WriteFile(spaced, []byte(strings.Replace(string(b1), "Seat", "Seat ", 1)), 0o644))
	o.NativeVotes = []string{s1, s2, spaced}
	wantErr(t, RunPanel(context.Background(), o), ExitRefused, "only in whitespace")
	// A failed re-run never leaves an assemblable report behind.
	o.NativeVotes = []string{s1, s2, s1}
	wantErr(t, RunPanel(context.Background(), o), ExitRefused, "every seat needs its own")
	if _, err := os.Stat(filepath.Join(dir, "panel", "panel_run_report.json")); err == nil {
		t.Error("old report survived a refused re-run")
	}
}

func TestThinRosterCannotRun(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	must(t, os.WriteFile(o.Roster, []byte(`{"version": 1, "families": {"claude": {"runner": "native", "available": false}}}`), 0o644))
	wantErr(t, RunPanel(context.Background(), o), ExitRefused, "cannot run")
}

func TestFamiliesSubsetNeverDegrades(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.Families = "gpt,glm"
	o.RunnerOverrides = []string{"gpt=stub vote:a", "glm=stub vote:b"}
	wantErr(t, RunPanel(context.Background(), o), ExitInvalid, "match is terminated")
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	if get(rep, "independence") != "cross_family" {
		t.Error("degraded")
	}
}

func TestMinimumAboveThree(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	must(t, os.WriteFile(o.Roster, []byte(strings.Replace(rosterJSON, `"cross_family_minimum": 3`, `"cross_family_minimum": 4`, 1)), 0o644))
	o.RunnerOverrides = overrides(map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b", "kimi": "garbage"})
	wantErr(t, RunPanel(context.Background(), o), ExitInvalid, "minimum 4")
}

// TestRunnerTemplatesMatchPython replays what run_panel.py makes of each
// --runner template of the table CPython produced
// (scripts/runner_template_golden.py): the argv byte for byte, the text of
// an "invocation error: <exc>", and the templates Python cannot split.
func TestRunnerTemplatesMatchPython(t *testing.T) {
	b, err := os.ReadFile("testdata/runner_templates.json")
	must(t, err)
	var golden struct {
		Prompt, System string
		Cases          []struct {
			Template        string    `json:"template"`
			Argv            *[]string `json:"argv"`
			SplitError      string    `json:"split_error"`
			InvocationError string    `json:"invocation_error"`
			Uncaught        string    `json:"uncaught"`
		} `json:"cases"`
	}
	must(t, json.Unmarshal(b, &golden))
	if len(golden.Cases) < 700 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		argv, err := expandTemplate(c.Template, golden.Prompt, golden.System)
		switch {
		case c.Argv != nil && len(*c.Argv) == 0:
			// Python runs subprocess.run([]): IndexError, an invocation error.
			if err == nil || err.Error() != "list index out of range" {
				t.Errorf("%q: %v; Python: invocation error: list index out of range", c.Template, err)
			}
		case c.Argv != nil:
			if err != nil || !slices.Equal(argv, *c.Argv) {
				t.Errorf("%q: argv %q, %v; Python: %q", c.Template, argv, err, *c.Argv)
			}
		case c.SplitError != "":
			if err == nil || err.Error() != c.SplitError {
				t.Errorf("%q: %q, %v; Python cannot split it: %s", c.Template, argv, err, c.SplitError)
			}
		case c.InvocationError != "":
			if err == nil || "invocation error: "+err.Error() != "invocation error: "+c.InvocationError {
				t.Errorf("%q: %q, %v; Python: invocation error: %s", c.Template, argv, err, c.InvocationError)
			}
		case c.Uncaught != "":
			if err == nil {
				t.Errorf("%q: %q; Python dies with %s", c.Template, argv, c.Uncaught)
			}
		}
	}
}

// test_shipped_example_file_still_parses.
func TestShippedExampleRoster(t *testing.T) {
	r, src, err := ResolveRoster(filepath.Join("..", "..", "fixtures", "match", "agents.example.json"), t.TempDir(), "")
	must(t, err)
	if _, ok := r.Family("claude"); !ok || src.Source != "explicit" {
		t.Errorf("example roster: %+v %+v", r, src)
	}
}

// test_distinct_runner_commands_pass_the_independence_guard.
func TestDistinctCommandsPassTheGuard(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, map[string]string{})
	o.Families = "gpt,glm,kimi"
	o.RunnerOverrides = []string{"gpt=stub vote:a {prompt}", "glm=stub garbage {prompt}", "kimi=stub vote:b {prompt}"}
	wantErr(t, RunPanel(context.Background(), o), ExitInvalid, "match is terminated")
}

// test_unusable_requested_family_is_absent_up_front_and_never_invoked.
func TestUnusableFamilyNeverInvoked(t *testing.T) {
	dir := setup(t)
	r := &stubRunner{}
	o := opts(dir, r, nil)
	o.RenderOnly = true
	must(t, RunPanel(context.Background(), o))
	o.RenderOnly = false
	o.NativeVotes = []string{nativeReply(t, dir, "claude.txt", "a", "")}
	o.RunnerOverrides = []string{"gpt=stub vote:a {prompt}", "glm=stub vote:b {prompt}"}
	must(t, RunPanel(context.Background(), o))
	rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	if !strings.Contains(rep, "runner's executable (kimi) is not present on this machine") {
		t.Error(rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "panel", "raw", "kimi")); err == nil {
		t.Error("kimi was dispatched")
	}
	for _, c := range r.calls {
		if strings.Contains(strings.Join(c, " "), "kimi") {
			t.Errorf("kimi invoked: %v", c)
		}
	}
}

// test_cross_family_native_vote_that_is_not_utf8_is_absent.
func TestNativeVoteNotUTF8(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	bad := filepath.Join(dir, "bad.txt")
	must(t, os.WriteFile(bad, []byte{0xff, 0xfe, 0}, 0o644))
	o.NativeVotes = []string{bad}
	o.RunnerOverrides = overrides(map[string]string{"gpt": "vote:a", "glm": "vote:b", "kimi": "vote:a"})
	must(t, RunPanel(context.Background(), o))
	rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	if !strings.Contains(rep, "as UTF-8 text") {
		t.Error(rep)
	}
}

// test_symmetry_identical_content_differs_only_by_node_id: the two golden
// statements differ only by node, label and evidence, so their rebuilt forms
// are equal once those are canonicalized.
func TestSymmetry(t *testing.T) {
	dir := setup(t)
	m, err := LoadMaterials(filepath.Join(dir, "mat"), 600)
	must(t, err)
	canon := func(s string, node, label string, ev ...string) string {
		s = strings.ReplaceAll(s, node, "NODE")
		s = strings.ReplaceAll(s, "Idea "+label, "Idea X")
		for i, e := range ev {
			s = strings.ReplaceAll(s, e, fmt.Sprintf("EV%d", i))
		}
		return s
	}
	a := canon(m.StatementA.Rebuilt, "1f6c9d5e", "A", "https://example.org/literature/residual-error-indicators", "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json")
	b := canon(m.StatementB.Rebuilt, "2a7d0e6f", "B", "https://example.org/literature/dispersive-representation-notes", "artifact://campaign/toy/computations/dispersive-toy-reconstruction.json")
	if a != b {
		t.Errorf("asymmetric rebuild:\n%s\n---\n%s", a, b)
	}
}

// The launcher and direct-runner argv of §5.5, and the meta.json model label.
func TestRunnerArgv(t *testing.T) {
	dir := setup(t)
	must(t, os.WriteFile(filepath.Join(dir, "roster.json"), []byte(`{"version": 1, "families": {
  "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
  "claude": {"runner": "claude-cli", "models": {"default": "default"}},
  "gem": {"runner": "gemini", "models": {"default": "default"}}}}`), 0o644))
	r := &launcherStub{}
	scripts := runnerFiles(t, dir, "opt/launcher.py", "opt/run_gemini.sh")
	o := opts(dir, r, map[string]string{"IDEA_PAIRWISE_MULTI_TASK": scripts[0], "IDEA_PAIRWISE_GEMINI_RUNNER": scripts[1]})
	o.LookPath = func(string) (string, error) { return "/usr/bin/x", nil }
	must(t, RunPanel(context.Background(), o))
	P, S := filepath.Join(dir, "panel", "judge_prompt.md"), filepath.Join(dir, "panel", "judge_system.md")
	A := func(f string) string { return filepath.Join(dir, "panel", "raw", f, "attempt1") }
	want := map[string][]string{
		"gpt":    {"python3", scripts[0], "--out-dir", A("gpt"), "--system", S, "--prompt", P, "--models", "codex/gpt-5.6-terra", "--backend-output", "codex=vote_raw.txt", "--timeout-secs", "900"},
		"claude": {"python3", scripts[0], "--out-dir", A("claude"), "--system", S, "--prompt", P, "--models", "claude/default", "--backend-output", "claude=vote_raw.txt", "--timeout-secs", "900"},
		"gem":    {"bash", scripts[1], "--prompt-file", P, "--system-prompt-file", S, "--out", filepath.Join(A("gem"), "vote_raw.txt")},
	}
	for fam, w := range want {
		if got := r.argv[fam]; !slices.Equal(got, w) {
			t.Errorf("%s argv\n got %q\nwant %q", fam, got, w)
		}
	}
	gpt := readObj(t, filepath.Join(dir, "panel", "votes", "gpt.json"))
	if get(gpt, "model") != "codex/gpt-5.6-terra-2026" {
		t.Errorf("meta.json model not used: %v", get(gpt, "model"))
	}
	gem := readObj(t, filepath.Join(dir, "panel", "votes", "gem.json"))
	if get(gem, "model") != "gemini/default" {
		t.Errorf("direct label %v", get(gem, "model"))
	}
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	if get(rep, "independent_runners") != true {
		t.Error("real runners are independent")
	}
}

// launcherStub answers every real-runner invocation with a vote, writing
// vote_raw.txt (and, for the launcher, meta.json) into the attempt dir.
type launcherStub struct {
	mu   sync.Mutex
	argv map[string][]string
}

func (s *launcherStub) Run(_ context.Context, c Command) Outcome {
	dir := filepath.Dir(c.ReplyFile)
	fam := filepath.Base(filepath.Dir(dir))
	s.mu.Lock()
	if s.argv == nil {
		s.argv = map[string][]string{}
	}
	s.argv[fam] = c.Argv
	s.mu.Unlock()
	if fam == "gpt" {
		_ = os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"agents": [{"model": "codex/gpt-5.6-terra-2026"}]}`), 0o644)
	}
	_ = os.WriteFile(c.ReplyFile, []byte("```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```"), 0o644)
	return Outcome{}
}

// W26: native + two CLIs without a native reply cannot reach the floor, so
// no judge is called and the message says what is missing.
func TestFloorUnreachableCallsNoJudge(t *testing.T) {
	dir := setup(t)
	r := &stubRunner{}
	o := opts(dir, r, nil)
	o.Families = "claude,gpt,glm"
	o.RunnerOverrides = []string{"gpt=stub vote:a {prompt}", "glm=stub vote:b {prompt}"}
	err := RunPanel(context.Background(), o)
	wantErr(t, err, ExitInvalid, "the native seat claude had no reply")
	if len(r.calls) != 0 {
		t.Errorf("judges called: %v", r.calls)
	}
	rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	if !strings.Contains(rep, "not run: at most 2 seats could vote (minimum 3)") || !strings.Contains(rep, `"panel_valid": false`) {
		t.Error(rep)
	}
}
