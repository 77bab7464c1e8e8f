package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/matchproto"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// assembled runs a 4-family stub panel (claude a, gpt a, glm b, kimi tie)
// and returns assemble options for it.
func assembled(t *testing.T) (string, AssembleOptions) {
	t.Helper()
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.RunnerOverrides = overrides(map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b", "kimi": "vote:tie"})
	must(t, RunPanel(context.Background(), o))
	return dir, AssembleOptions{Commitment: filepath.Join(dir, "mat", "commitment.json"), VotesDir: filepath.Join(dir, "panel", "votes"),
		MaterialsDir: filepath.Join(dir, "mat"), CampaignDir: filepath.Join(dir, "camp"), CampaignID: "3b8e1f70", IdeaA: "1f6c9d5e", IdeaB: "2a7d0e6f"}
}

func editJSON(t *testing.T, p string, f func(matchproto.Object) matchproto.Object) {
	t.Helper()
	must(t, os.WriteFile(p, matchproto.Marshal(f(readObj(t, p))), 0o644))
}

func TestAssembleWritesValidArtifact(t *testing.T) {
	dir, o := assembled(t)
	o.MatchID = "4c9a2d10"
	a, err := Assemble(o)
	must(t, err)
	disk, err := os.ReadFile(filepath.Join(dir, "camp", "artifacts", "matches", "match-4c9a2d10.json"))
	must(t, err)
	if string(disk) != string(matchproto.Marshal(a.Artifact)) {
		t.Error("disk differs from the returned artifact")
	}
	var fams []string
	for _, e := range get(a.Artifact, "panel").([]any) {
		eo := e.(matchproto.Object)
		fams = append(fams, get(eo, "reviewer_family").(string))
		if len(eo) != 5 {
			t.Errorf("entry keys %v", eo.Keys())
		}
	}
	if strings.Join(fams, ",") != "claude,glm,gpt,kimi" || get(a.Artifact, "observation_write", "written") != false {
		t.Errorf("panel order %v", fams)
	}
	if !strings.Contains(strings.Join(a.Lines, "\n"), "winner: a (vote_margin 0.2500)") {
		t.Error(a.Lines)
	}
	// The artifact also passes the JSON Schema.
	if ps, err := vm.SchemaProblems("pairwise_match_v1.schema.json", disk); err != nil || len(ps) != 0 {
		t.Errorf("schema: %v %v", vm.Messages(ps), err)
	}
	// Rematch guard, both orders; a rationale lets it through.
	o.MatchID = "5d0b3e21"
	_, err = Assemble(o)
	wantErr(t, err, ExitInvalid, "rematch")
	o.IdeaA, o.IdeaB = o.IdeaB, o.IdeaA
	_, err = Assemble(o)
	wantErr(t, err, 0, "argues for node") // swapped sides fail the statement cross-check first
	o.IdeaA, o.IdeaB = o.IdeaB, o.IdeaA
	o.Rationale = "   "
	_, err = Assemble(o)
	wantErr(t, err, ExitInvalid, "--rationale is blank")
	o.Rationale = "new evidence"
	a, err = Assemble(o)
	must(t, err)
	if get(a.Artifact, "rationale") != "new evidence" {
		t.Error("rationale not recorded")
	}
	o.MatchID = "4c9a2d10"
	_, err = Assemble(o)
	wantErr(t, err, ExitInvalid, "artifact already exists")
}

func TestAssembleRefusals(t *testing.T) {
	report := func(dir string) string { return filepath.Join(dir, "panel", "panel_run_report.json") }
	vote := func(dir, f string) string { return filepath.Join(dir, "panel", "votes", f+".json") }
	tests := []struct {
		name string
		mod  func(t *testing.T, dir string, o *AssembleOptions)
		want string
	}{
		{"report missing", func(t *testing.T, dir string, o *AssembleOptions) { must(t, os.Remove(report(dir))) }, "panel run report not found"},
		{"commitment hash mismatch", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, vote(dir, "gpt"), func(v matchproto.Object) matchproto.Object {
				return v.Set("commitment_hash", "sha256:"+strings.Repeat("0", 64))
			})
		}, "thread is broken"},
		{"fewer than three", func(t *testing.T, dir string, o *AssembleOptions) {
			for _, f := range []string{"glm", "kimi"} {
				must(t, os.Remove(vote(dir, f)))
			}
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				return v.Set("votes_collected", matchproto.Object{{Key: "claude", Value: "votes/claude.json"}, {Key: "gpt", Value: "votes/gpt.json"}}).Set("families_present", []any{"claude", "gpt"})
			})
		}, "minimum 3"},
		{"duplicate family", func(t *testing.T, dir string, o *AssembleOptions) {
			b, _ := os.ReadFile(vote(dir, "gpt"))
			must(t, os.WriteFile(vote(dir, "gpt_second"), b, 0o644))
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				vc := get(v, "votes_collected").(matchproto.Object)
				return v.Set("votes_collected", append(vc, matchproto.Member{Key: "gpt_second", Value: "votes/gpt_second.json"}))
			})
		}, "duplicate vote"},
		{"vote before commitment", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, vote(dir, "gpt"), func(v matchproto.Object) matchproto.Object { return v.Set("collected_at", "2001-01-01T00:00:00+00:00") })
		}, "stage order violated"},
		{"future commitment", func(t *testing.T, dir string, o *AssembleOptions) {
			o.Now = func() time.Time { return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC) }
		}, "lies in the future"},
		{"bad ids", func(t *testing.T, dir string, o *AssembleOptions) { o.CampaignID = "not-a-short-id" }, "not an engine short id"},
		{"uuid idea", func(t *testing.T, dir string, o *AssembleOptions) { o.IdeaA = "123e4567-e89b-12d3" }, "not an engine short id"},
		{"same node", func(t *testing.T, dir string, o *AssembleOptions) { o.IdeaB = o.IdeaA }, "same node"},
		{"panel_valid false", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object { return v.Set("panel_valid", false) })
		}, "panel_valid"},
		{"min_families 4", func(t *testing.T, dir string, o *AssembleOptions) {
			must(t, os.Remove(vote(dir, "kimi")))
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				vc := get(v, "votes_collected").(matchproto.Object)
				return v.Set("min_families", 4).Set("votes_collected", vc[:3]).Set("families_present", []any{"claude", "glm", "gpt"})
			})
		}, "minimum 4"},
		{"single family claiming independence", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				return v.Set("independence", "single_family").Set("independent_runners", true)
			})
		}, "never count as independent"},
		{"manifest escapes", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				vc := get(v, "votes_collected").(matchproto.Object)
				return v.Set("votes_collected", vc.Set("gpt", "../outside_vote.json"))
			})
		}, "escapes the panel directory"},
		{"absolute manifest path", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				vc := get(v, "votes_collected").(matchproto.Object)
				return v.Set("votes_collected", vc.Set("gpt", vote(dir, "gpt")))
			})
		}, "escapes the panel directory"},
		{"symlink escapes", func(t *testing.T, dir string, o *AssembleOptions) {
			out := filepath.Join(dir, "outside.json")
			b, _ := os.ReadFile(vote(dir, "gpt"))
			must(t, os.WriteFile(out, b, 0o644))
			must(t, os.Remove(vote(dir, "gpt")))
			must(t, os.Symlink(out, vote(dir, "gpt")))
		}, "resolves outside the votes directory"},
		{"stray vote file", func(t *testing.T, dir string, o *AssembleOptions) {
			must(t, os.WriteFile(vote(dir, "zz_stale"), []byte("{}"), 0o644))
		}, "not named by the panel run report"},
		{"placeholder digest", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				return v.Set("judge_prompt_sha256", "sha256:"+strings.Repeat("0", 64))
			})
		}, "no longer rebuild the judge prompt"},
		{"report without digest", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object { return del(v, "judge_prompt_sha256") })
		}, "judge_prompt_sha256"},
		{"report without word_cap", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object { return del(v, "word_cap") })
		}, "word_cap"},
		{"independence claimed over override votes", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object { return v.Set("independent_runners", true) })
		}, "came from a --runner override"},
		{"report commitment differs", func(t *testing.T, dir string, o *AssembleOptions) {
			editJSON(t, report(dir), func(v matchproto.Object) matchproto.Object {
				return v.Set("commitment_hash", "sha256:"+strings.Repeat("1", 64))
			})
		}, "thread is broken"},
		{"edited statement after the panel", func(t *testing.T, dir string, o *AssembleOptions) {
			p := filepath.Join(dir, "mat", "statement_a.md")
			b, _ := os.ReadFile(p)
			must(t, os.WriteFile(p, []byte(strings.Replace(string(b), "directly.", "directly, really.", 1)), 0o644))
		}, "no longer rebuild the judge prompt"},
		{"template upgrade makes the panel stale", func(t *testing.T, dir string, o *AssembleOptions) {
			o.Templates = DefaultTemplates()
			o.Templates.System += "One more sentence.\n"
		}, "no longer rebuild the judge prompt"},
		{"backdated commitment copy", func(t *testing.T, dir string, o *AssembleOptions) {
			c := filepath.Join(dir, "copy.json")
			b, _ := os.ReadFile(o.Commitment)
			must(t, os.WriteFile(c, []byte(strings.Replace(string(b), "2026-07-05T08:00:00", "2000-01-01T00:00:00", 1)), 0o644))
			o.Commitment = c
		}, "is not the materials' commitment.json"},
		{"corrupt earlier artifact", func(t *testing.T, dir string, o *AssembleOptions) {
			m := filepath.Join(dir, "camp", "artifacts", "matches")
			must(t, os.MkdirAll(m, 0o755))
			must(t, os.WriteFile(filepath.Join(m, "match-zzzzzzzz.json"), []byte("{broken"), 0o644))
		}, "the rematch guard cannot read"},
		{"array earlier artifact", func(t *testing.T, dir string, o *AssembleOptions) {
			m := filepath.Join(dir, "camp", "artifacts", "matches")
			must(t, os.MkdirAll(m, 0o755))
			must(t, os.WriteFile(filepath.Join(m, "match-zzzzzzzz.json"), []byte("[]"), 0o644))
		}, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, o := assembled(t)
			tt.mod(t, dir, &o)
			_, err := Assemble(o)
			wantErr(t, err, ExitInvalid, tt.want)
			files, _ := filepath.Glob(filepath.Join(dir, "camp", "artifacts", "matches", "match-*.json"))
			for _, f := range files {
				if !strings.Contains(f, "zzzzzzzz") {
					t.Errorf("artifact written: %s", f)
				}
			}
		})
	}
}

func del(o matchproto.Object, k string) matchproto.Object {
	out := matchproto.Object{}
	for _, m := range o {
		if m.Key != k {
			out = append(out, m)
		}
	}
	return out
}

// The single-family assembly rows of §7.5.
func TestSingleFamilyAssembly(t *testing.T) {
	setupSF := func(t *testing.T) (string, AssembleOptions) {
		dir := setup(t)
		o := opts(dir, &stubRunner{}, nil)
		o.Roster = ""
		o.Home = ""
		err := RunPanel(context.Background(), o)
		wantErr(t, err, ExitDegraded, "native_subagents")
		o.NativeVotes = []string{nativeReply(t, dir, "s1.txt", "a", ""), nativeReply(t, dir, "s2.txt", "a", ""), nativeReply(t, dir, "s3.txt", "tie", "")}
		must(t, RunPanel(context.Background(), o))
		return dir, AssembleOptions{Commitment: filepath.Join(dir, "mat", "commitment.json"), VotesDir: filepath.Join(dir, "panel", "votes"),
			MaterialsDir: filepath.Join(dir, "mat"), CampaignDir: filepath.Join(dir, "camp"), CampaignID: "3b8e1f70", IdeaA: "1f6c9d5e", IdeaB: "2a7d0e6f"}
	}
	dir, o := setupSF(t)
	a, err := Assemble(o)
	must(t, err)
	// W28: [a, a, tie] is a majority, tier 10 as in the reference.
	if a.Tier != 10 || get(a.Artifact, "panel_independence", "mode") != "single_family" {
		t.Errorf("tier %d", a.Tier)
	}
	_ = dir
	vote := func(dir string, n string) string { return filepath.Join(dir, "panel", "votes", "host_seat_"+n+".json") }
	for _, tt := range []struct {
		name string
		mod  func(t *testing.T, dir string)
		want string
	}{
		{"duplicate seat", func(t *testing.T, dir string) {
			editJSON(t, vote(dir, "3"), func(v matchproto.Object) matchproto.Object { return v.Set("seat", 2) })
		}, "duplicate seat"},
		{"foreign family", func(t *testing.T, dir string) {
			editJSON(t, vote(dir, "3"), func(v matchproto.Object) matchproto.Object { return v.Set("reviewer_family", "gpt").Set("seat", 9) })
		}, "belongs to"},
		{"missing seat", func(t *testing.T, dir string) {
			editJSON(t, vote(dir, "3"), func(v matchproto.Object) matchproto.Object { return del(v, "seat") })
		}, "seat"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, o := setupSF(t)
			tt.mod(t, dir)
			_, err := Assemble(o)
			wantErr(t, err, ExitInvalid, tt.want)
		})
	}
}

func TestMintShortID(t *testing.T) {
	seen := map[string]bool{}
	nonHex := false
	for range 64 {
		id, err := MintShortID()
		must(t, err)
		if !matchproto.ShortIDRE.MatchString(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
		nonHex = nonHex || strings.ContainsAny(id, "ghjkmnpqrstvwxyz")
	}
	if !nonHex {
		t.Error("ids never use the non-hex symbols")
	}
}
