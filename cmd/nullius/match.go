package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/matchproto"
	pm "github.com/nullius-dev/nullius/pipeline/match"
)

// matchCmd groups the pairwise-match protocol steps.
func (a *app) matchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "match",
		Short: "Pairwise matches: commit criteria, render materials, run a judge panel, assemble",
		Long: `The pairwise-match protocol, one gated step per subcommand:

  nullius match commit    commit the comparison criteria (commitment.json)
  nullius match render    render card summaries and statement requests
  nullius match panel     verify and rebuild the statements, render the judge
                          prompt, run the judge panel, write panel_run_report.json
  nullius match doctor    show which judge families would run, and why not
  nullius match assemble  re-check the whole thread, tally, write pairwise_match_v1
  nullius match absorb    carry a finished match into both ideas' Gaia graphs
  nullius match pairs     propose the next pairs from the campaign's node store

Each step runs its checks before it writes or runs anything and refuses on the
first failure: nothing reaches a judge and no artifact is written unless every
check before it passed. Validate any artifact with
'nullius validate match|commitment|roster|vote|panel-report FILE...'.

Steps never interleave on one directory: commit, render, panel and assemble
lock the directories they read and write (<dir>/.nullius.lock, released when
the step ends or dies). A second step on a locked directory waits up to 10 s
($NULLIUS_LOCK_WAIT, a duration such as 0s or 2m), then stops with exit 2,
naming the pid of the step holding the lock.` + limitsNote,
		Example: `  # One match of idea A against idea B, step by step (materials in mat/):
  nullius match commit --out mat/commitment.json
  nullius match render --materials-dir mat --card-a cards/a.json --card-b cards/b.json
  #   ... write mat/statement_a.md and mat/statement_b.md as the requests ask ...
  nullius match panel --materials-dir mat --out-dir mat/panel
  nullius match assemble --commitment mat/commitment.json --votes-dir mat/panel/votes \
    --materials-dir mat --campaign-dir campaign --campaign-id c0ffee12 \
    --idea-a n0de0001 --idea-b n0de0002`,
	}
	cmd.AddCommand(a.matchCommitCmd(), a.matchRenderCmd(), a.matchPanelCmd(), a.matchDoctorCmd(), a.matchAssembleCmd(), a.matchAbsorbCmd(), a.matchPairsCmd())
	return cmd
}

// stepErr maps a pipeline refusal to the exit status the protocol gives it.
func stepErr(err error) error {
	if err == nil {
		return nil
	}
	var pe *pm.Error
	if errors.As(err, &pe) {
		return &exitErr{code: pe.Code, msg: pe.Msg}
	}
	return &exitErr{code: exitError, msg: err.Error()}
}

func (a *app) matchCommitCmd() *cobra.Command {
	var out, file string
	var criteria []string
	cmd := &cobra.Command{
		Use:   "commit --out PATH [--criteria TEXT]... [--criteria-file FILE]",
		Short: "Commit the comparison criteria before anything else",
		Long: `Canonicalize the criteria (NFC, whitespace collapsed, duplicates refused,
sorted by code point), hash the compact JSON list (sha256; committed_at is not
hashed), and write {committed_at, criteria, commitment_hash} to --out.

The file is created atomically and exclusively: an existing commitment is never
overwritten. Without --criteria or --criteria-file the default library is used:
tension resolution, downstream reach and breadth of applicability, mechanism
insight, testability and timing, verification cost.

Exit codes: 0 written; 1 criteria invalid or --criteria-file unreadable;
2 --out already exists (never overwritten) or a usage error.` + limitsNote,
		Example: `  # The default criteria library:
  nullius match commit --out mat/commitment.json

  # Your own criteria, one flag each (order does not matter: they are sorted):
  nullius match commit --out mat/commitment.json \
    --criteria 'tension resolution' --criteria 'verification cost'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageErrorf("--out is required")
			}
			if len(criteria) > 0 && file != "" {
				return usageErrorf("--criteria and --criteria-file are mutually exclusive")
			}
			var in any = matchproto.DefaultCriteria()
			switch {
			case len(criteria) > 0:
				in = criteria
			case file != "":
				v, err := pm.LoadCriteriaFile(file)
				if err != nil {
					return stepErr(err)
				}
				in = v
			}
			c, err := pm.Commit(out, in, nil)
			if err != nil {
				return stepErr(err)
			}
			crit, _ := c.Get("criteria")
			h, _ := c.Get("commitment_hash")
			fmt.Fprintf(a.stdout, "committed %d criteria\ncommitment_hash: %s\nwritten: %s\n", len(crit.([]string)), h, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "commitment file to create (refused if it exists)")
	cmd.Flags().StringArrayVar(&criteria, "criteria", nil, "a criterion (repeat the flag for several)")
	cmd.Flags().StringVar(&file, "criteria-file", "", "JSON array of criteria")
	return cmd
}

func (a *app) matchRenderCmd() *cobra.Command {
	var o pm.RenderOptions
	cmd := &cobra.Command{
		Use:   "render --materials-dir DIR --card-a FILE --card-b FILE",
		Short: "Render card summaries and statement requests into the materials dir",
		Long: `Render card_summary_{a,b}.md (--summaries) and statement_request_{a,b}.md
(--statement-prompts) into --materials-dir; with neither flag both are rendered.
<materials-dir>/commitment.json must exist and validate.

Cards may be the reference's shape (node_id, title, gist, status,
claims[{claim, support_type, evidence_uris}]), an engine idea_node_v1 record
(node_id, lifecycle_state, rationale_draft.title, idea_card), or a bare
idea_card_v1 (claims[{claim_text, ...}]) with --node-a/--node-b giving the node.
With --nodes (the idea store's nodes_latest.json) the cards are the records of
--node-a and --node-b themselves: the idea engine keeps each idea's card in its
node record, so no card file is needed.

Exit codes: 0 rendered; 1 a card or the commitment was refused; 2 usage error.` + limitsNote,
		Example: `  # Card summaries and statement requests for both sides:
  nullius match render --materials-dir mat --card-a cards/a.json --card-b cards/b.json

  # The cards straight from the idea store's node records:
  nullius match render --materials-dir mat \
    --nodes idea-store/campaigns/c0ffee12/nodes_latest.json --node-a n0de0001 --node-b n0de0002

  # Bare idea_card_v1 cards carry no node id: give it.
  nullius match render --materials-dir mat --card-a a.json --card-b b.json \
    --node-a n0de0001 --node-b n0de0002`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.MaterialsDir == "" {
				return usageErrorf("--materials-dir is required")
			}
			if o.WordCap < 1 {
				return usageErrorf("--word-cap must be a positive integer, got %d", o.WordCap)
			}
			if !o.Summaries && !o.StatementPrompts {
				o.Summaries, o.StatementPrompts = true, true
			}
			s, err := pm.Render(o)
			if s != nil {
				for _, p := range s.Written {
					fmt.Fprintf(a.stdout, "rendered %s\n", p)
				}
			}
			return stepErr(err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.MaterialsDir, "materials-dir", "", "materials directory (holds commitment.json)")
	f.StringVar(&o.CardA, "card-a", "", "idea card of side A (JSON)")
	f.StringVar(&o.CardB, "card-b", "", "idea card of side B (JSON)")
	f.StringVar(&o.NodeA, "node-a", "", "node id of side A, for a bare idea_card_v1 or a --nodes record")
	f.StringVar(&o.NodeB, "node-b", "", "node id of side B, for a bare idea_card_v1 or a --nodes record")
	f.StringVar(&o.Nodes, "nodes", "", "the idea store's nodes_latest.json: take both cards from the records of --node-a and --node-b")
	f.BoolVar(&o.Summaries, "summaries", false, "render card_summary_{a,b}.md")
	f.BoolVar(&o.StatementPrompts, "statement-prompts", false, "render statement_request_{a,b}.md")
	f.IntVar(&o.WordCap, "word-cap", 600, "word cap stated in the statement requests")
	return cmd
}

func (a *app) matchPanelCmd() *cobra.Command {
	o := pm.PanelOptions{}
	var pf progressFlags
	cmd := &cobra.Command{
		Use:   "panel --materials-dir DIR --out-dir DIR",
		Short: "Verify the statements, render the judge prompt and run the judge panel",
		Long: `Verify and rebuild statement_{a,b}.md against the commitment and the card
summaries, render judge_prompt.md and judge_system.md into --out-dir, then run
one judge per roster family and write votes/*.json and panel_run_report.json.

Roster: --roster FILE, else <git root>/.nullius/agents.json, else
~/.nullius/agents.json, else a built-in single native family "host".

Judges are started as the Python run_panel.py starts them, never through a
shell, in nullius's working directory, with its environment plus
REVIEW_SWARM_NO_AUTO_CONFIG=1 and its stdin (unless that is a terminal):
  kimi      bash RUNNER --prompt-file P --system-prompt-file S --out A/vote_raw.txt
            --timeout-secs T --max-attempts 1 --raw-out A/kimi_stream_raw.txt
            [--model M --no-fallback]
  opencode  bash RUNNER --prompt-file P --system-prompt-file S --out A/vote_raw.txt
            --max-attempts 1 [--model M --no-fallback]
  gemini    bash RUNNER --prompt-file P --system-prompt-file S --out A/vote_raw.txt
            [--model M --no-fallback]
  codex, claude-cli
            PYTHON LAUNCHER --out-dir A --system S --prompt P --models codex/M
            (claude/M) --backend-output codex=vote_raw.txt --timeout-secs T
  native    the host's own subagent: its reply is injected with --native-vote FILE
PYTHON is --python, else $NULLIUS_PYTHON, else python3. RUNNER and LAUNCHER are
looked for, in order: (1) $IDEA_PAIRWISE_KIMI_RUNNER, $IDEA_PAIRWISE_OPENCODE_RUNNER,
$IDEA_PAIRWISE_GEMINI_RUNNER, $IDEA_PAIRWISE_MULTI_TASK; (2) under --skills-root DIR
(else $NULLIUS_SKILLS_ROOT), the sibling skills as distributed:
  DIR/kimi-cli-runner/scripts/run_kimi.sh
  DIR/opencode-cli-runner/scripts/run_opencode.sh
  DIR/gemini-cli-runner/scripts/run_gemini.sh
  DIR/review-swarm/scripts/bin/run_multi_task.py
(3) the file name on PATH. They need not be executable (as distributed,
run_kimi.sh and run_multi_task.py are not): the interpreter runs them.

A family is usable when declared available and native, overridden with --runner,
or its CLI (codex, claude, opencode, gemini, kimi) is on PATH. Before any judge
runs, every usable seat's runner script and interpreter are checked: a missing
one makes that family absent with the reason (the floor then decides). Runners
time out after --timeout-secs plus 120 s (overrides plus 60 s); each seat gets one
retry. 'nullius match doctor' shows all of this without running a judge.

--runner FAMILY=COMMAND replaces a family's runner with COMMAND, split exactly
as Python's shlex.split and run without a shell; each word is expanded exactly
as Python's str.format with {prompt} and {system} the rendered files ({{ and }}
are braces; any other field, {} included, fails the seat); stdout is the reply.
Two seats that run the same command are refused unless
IDEA_PAIRWISE_ALLOW_STUB_RUNNERS=1, which records independent_runners=false.

When fewer families are usable than the roster's cross_family_minimum, the panel
degrades to native subagent seats: run that many host subagents on
judge_prompt.md, save each reply to its own file, and pass one --native-vote per
seat; each reply must echo the prompt's judge_prompt_sha256.

While judges run, a terminal shows each seat (waiting, running with its elapsed
time, voted, failed, absent with the reason) and the tally as votes arrive, on
stderr; --progress json prints the same events as JSON lines for agents
(schemas/progress_event_v1.schema.json), --quiet nothing.

Interrupting the panel (Ctrl-C, SIGTERM) stops every judge's process group;
panel_run_report.json then records the interruption and nullius exits 130 or 143.

Exit codes: 0 rendered / panel valid; 1 a contract violation refused the run;
2 the panel is invalid (vote floor not met) or a usage error; 3 degraded: native
seat replies are needed (guidance on stderr).` + limitsNote,
		Example: `  # Check the materials and look at the prompt before any judge runs:
  nullius match panel --materials-dir mat --out-dir mat/panel --render-prompt-only

  # All five CLI families from the sibling skills (see docs/panel.md):
  nullius match panel --materials-dir mat --out-dir mat/panel \
    --roster agents.json --skills-root ~/.claude/skills

  # Degraded to native seats (exit 3 said so): one reply file per seat.
  nullius match panel --materials-dir mat --out-dir mat/panel \
    --native-vote seat1.txt --native-vote seat2.txt --native-vote seat3.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.MaterialsDir == "" {
				return usageErrorf("--materials-dir is required")
			}
			if o.WordCap < 1 || o.TimeoutSecs < 1 {
				return usageErrorf("--word-cap and --timeout-secs must be positive integers")
			}
			if home, err := os.UserHomeDir(); err == nil {
				o.Home = home
			}
			disp, err := a.display(&pf)
			if err != nil {
				return err
			}
			o.Out, o.Progress = disp.Writer(a.stdout), disp
			o.Stdin = a.childStdin()
			err = pm.RunPanel(cmd.Context(), o)
			disp.Close()
			return stepErr(err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.MaterialsDir, "materials-dir", "", "materials directory (commitment, card summaries, statements)")
	f.StringVar(&o.OutDir, "out-dir", "", "panel directory to write (judge prompt, votes, report)")
	f.StringVar(&o.Roster, "roster", "", "agents.json roster to use (skips discovery)")
	f.StringVar(&o.Families, "families", "", "comma-separated families to seat (default: all in the roster)")
	f.StringArrayVar(&o.ModelSpecs, "model-spec", nil, "FAMILY=MODEL: run that family on another of its models")
	f.StringArrayVar(&o.ModelLabels, "model-label", nil, "FAMILY=LABEL: record this model label in the vote")
	f.StringArrayVar(&o.RunnerOverrides, "runner", nil, "FAMILY=COMMAND: run COMMAND for that family ({prompt}, {system} are substituted)")
	f.StringArrayVar(&o.NativeVotes, "native-vote", nil, "a native seat's reply file (repeat per seat)")
	f.IntVar(&o.TimeoutSecs, "timeout-secs", 900, "judge timeout in seconds")
	f.IntVar(&o.WordCap, "word-cap", 600, "statement word cap (counted on the rebuilt statement)")
	f.BoolVar(&o.RenderOnly, "render-prompt-only", false, "verify the materials and render the judge prompt, then stop")
	registerRunnerFlags(f, &o)
	pf.register(cmd)
	return markInterruptible(cmd)
}

func (a *app) matchAssembleCmd() *cobra.Command {
	var o pm.AssembleOptions
	cmd := &cobra.Command{
		Use:   "assemble --commitment FILE --votes-dir DIR --materials-dir DIR --campaign-dir DIR --campaign-id ID --idea-a ID --idea-b ID",
		Short: "Re-check the integrity thread, tally the votes and write pairwise_match_v1",
		Long: `Re-check everything before writing: the commitment (which must be the materials'
own commitment.json, committed_at included), the ids, both statements against the
commitment and the nodes, the panel report beside --votes-dir (its prompt digest
recomputed from the current materials), every vote (commitment hash, collected_at
not before committed_at, family and seat rules, floor), and the rematch guard
(a pair already matched needs --rationale; an unreadable earlier artifact is
refused, not skipped). Then tally, map the tier (ties never count as a side; a
unanimous tier-10 win needs a strict majority of the panel), validate the
artifact and write <campaign-dir>/artifacts/matches/match-<id>.json atomically
with observation_write.written=false.

Exit codes: 0 artifact written; 2 refused (any check failed) or a usage error.` + limitsNote,
		Example: `  nullius match assemble --commitment mat/commitment.json --votes-dir mat/panel/votes \
    --materials-dir mat --campaign-dir campaign --campaign-id c0ffee12 \
    --idea-a n0de0001 --idea-b n0de0002

  # The pair was matched before: say why it is matched again.
  nullius match assemble --commitment mat/commitment.json --votes-dir mat/panel/votes \
    --materials-dir mat --campaign-dir campaign --campaign-id c0ffee12 \
    --idea-a n0de0001 --idea-b n0de0002 --rationale 'both graphs gained evidence since'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for flag, v := range map[string]string{"--commitment": o.Commitment, "--votes-dir": o.VotesDir, "--materials-dir": o.MaterialsDir,
				"--campaign-dir": o.CampaignDir, "--campaign-id": o.CampaignID, "--idea-a": o.IdeaA, "--idea-b": o.IdeaB} {
				if v == "" {
					return usageErrorf("%s is required (see 'nullius match assemble --help'; --materials-dir is always required)", flag)
				}
			}
			res, err := pm.Assemble(o)
			if err != nil {
				return stepErr(err)
			}
			for _, l := range res.Lines {
				fmt.Fprintln(a.stdout, l)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Commitment, "commitment", "", "criteria commitment (the materials' commitment.json)")
	f.StringVar(&o.VotesDir, "votes-dir", "", "panel votes directory (panel_run_report.json sits beside it)")
	f.StringVar(&o.MaterialsDir, "materials-dir", "", "materials directory the panel was run on")
	f.StringVar(&o.CampaignDir, "campaign-dir", "", "campaign directory (artifact goes to artifacts/matches/)")
	f.StringVar(&o.CampaignID, "campaign-id", "", "campaign short id")
	f.StringVar(&o.IdeaA, "idea-a", "", "node short id of idea A")
	f.StringVar(&o.IdeaB, "idea-b", "", "node short id of idea B")
	f.StringVar(&o.MatchID, "match-id", "", "match short id (minted when absent)")
	f.StringVar(&o.Rationale, "rationale", "", "why this pair is matched again (required for a rematch)")
	return cmd
}
