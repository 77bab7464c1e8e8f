package match

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the rules of the pairwise-match artifacts.
const family = diag.Family("match")

// The rules of the pairwise-match artifacts, each declared once with its
// documentation; validators report these values. Codes are stable and
// never reused.
var (
	// file is not valid JSON / UTF-8
	CodeJSON = rule("MATCH001", "match-invalid-json", "artifact is not valid UTF-8 JSON",
		"Every pairwise-match artifact must be strict JSON in UTF-8. NaN, Infinity and trailing data are refused (Python accepts NaN).",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": NaN
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"nullius")
	// an object repeats a key
	CodeDuplicateKey = rule("MATCH002", "match-duplicate-key", "object repeats a key",
		"Python's json keeps the last of two equal keys silently (W26), so a reader and a writer can disagree on the value. Remove the repeated key.",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"nullius")
	// JSON Schema violation
	CodeSchema = rule("MATCH003", "match-schema", "artifact violates its JSON Schema",
		"The artifact does not satisfy its JSON Schema in schemas/. The semantic rules run first and the schema only when they found nothing, so each constraint is reported once, by its most specific owner: MATCH003 reports what no semantic rule checks (a panel report's commitment_hash, a vote record's collection object). Every constraint of the pairwise_match_v1 schema is also checked by MATCH020-032, which report it instead. Fix the member at the reported pointer.",
		`$ nullius validate panel-report panel_run_report.json
-- panel_run_report.json --
{
  "commitment_hash": "73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		`$ nullius validate panel-report panel_run_report.json
-- panel_run_report.json --
{
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`, "reference")
	CodeCommitmentShape = rule("MATCH010", "commitment-shape", "criteria commitment has the wrong keys or type",
		"A criteria commitment is an object with exactly committed_at, criteria and commitment_hash (§1.4).",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa",
  "note": "agreed at the kickoff"
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"reference")
	CodeCommitmentTime = rule("MATCH011", "commitment-timestamp", "committed_at is not an rfc 3339 timestamp with offset",
		"committed_at must be RFC 3339 with an explicit offset (Z or ±HH:MM); nullius narrows Python's fromisoformat so the result does not depend on the interpreter (W24).",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"reference")
	CodeCommitmentCriteria = rule("MATCH012", "commitment-criteria", "criteria are invalid or not stored canonically",
		"Criteria must be non-empty distinct strings stored NFC-normalized, whitespace-collapsed and sorted by code point (§1.1). Rewrite them with `nullius match commit`.",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["verification cost", "tension resolution"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"reference")
	CodeCommitmentHash = rule("MATCH013", "commitment-hash", "commitment hash is malformed or does not match the criteria",
		"commitment_hash is sha256 over the compact JSON of the canonical criteria list (§1.2); it must have the form sha256:<64 hex> and equal the recomputed value.",
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"
}
`,
		`$ nullius validate commitment commitment.json
-- commitment.json --
{
  "committed_at": "2026-07-05T08:00:00+00:00",
  "criteria": ["tension resolution", "verification cost"],
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"
}
`,
		"reference")
	CodeArtifactShape = rule("MATCH020", "match-shape", "pairwise_match_v1 has unknown or missing top-level keys",
		"pairwise_match_v1 has ten required keys plus optional rationale and statement_binding (§6.5 rules 1-3).",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "winner_note": "a wins on cost"
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "rationale": "a rematch after the new pilot data"
}
`,
		"reference")
	CodeShortID = rule("MATCH021", "match-short-id", "id is not an engine short id",
		"match_id, campaign_id and node ids are 8 symbols of lowercase Crockford base32 (no i, l, o, u), full match.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "match_id": "MATCH-1"
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "match_id": "5d0b3e21"
}
`,
		"reference")
	CodeSameNode = rule("MATCH022", "match-same-node", "idea a and idea b are the same node",
		"A match compares two different ideas.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "idea_b_node_id": "1f6c9d5e",
  "statement_binding": {
    "b": {
      "idea_node_id": "1f6c9d5e"
    }
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "idea_b_node_id": "2a7d0e6f",
  "statement_binding": {
    "b": {
      "idea_node_id": "2a7d0e6f"
    }
  }
}
`,
		"reference")
	CodeIndependence = rule("MATCH023", "match-panel-independence", "panel_independence is malformed",
		"panel_independence is {mode, families_present, families_absent}; mode cross_family or single_family; present families distinct labels; absent items {family, reason}; no family both present and absent.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel_independence": {
    "mode": "mixed"
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel_independence": {
    "mode": "single_family"
  }
}
`,
		"reference")
	CodePanelEntry = rule("MATCH024", "match-panel-entry", "panel entry is malformed",
		"Each panel entry has reviewer_family (label), model (non-blank), vote (a, b or tie), anchored_arguments and unanchored_arguments_discarded (integer >= 0), plus seat on single-family panels.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel": [
    {
      "seat": 3,
      "model": " "
    }
  ]
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel": [
    {
      "seat": 3,
      "model": "host/host-subagent"
    }
  ]
}
`,
		"reference")
	CodeComposition = rule("MATCH025", "match-panel-composition", "panel composition breaks the independence rules",
		"A cross-family panel has one vote per family, at least 3 families, no seat numbers; a single-family panel has at least 3 numbered, distinct seats of one family; both agree with families_present.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel": [
    {
      "seat": 3,
      "reviewer_family": "gpt",
      "model": "codex/gpt-5.6-terra"
    }
  ]
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "panel": [
    {
      "seat": 3,
      "reviewer_family": "host",
      "model": "host/host-subagent"
    }
  ]
}
`,
		"reference")
	CodeRunners = rule("MATCH026", "match-independent-runners", "independent_runners is not a boolean or is impossible",
		"independent_runners must be a boolean, and a single_family panel can never claim independent runners.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "independent_runners": true
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "independent_runners": false
}
`,
		"reference")
	CodeOutcome = rule("MATCH027", "match-outcome", "outcome is malformed",
		"outcome is {winner, vote_margin, decided_at}; winner a, b or tie; vote_margin a number in [0, 1]; decided_at a timestamp.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "vote_margin": 1.5
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "vote_margin": 0.6666666666666666
  }
}
`,
		"reference")
	CodeTally = rule("MATCH028", "match-outcome-tally", "outcome does not match the panel tally",
		"winner and vote_margin are recomputed from the panel's votes (ties count in the denominator only).",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "winner": "b"
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "winner": "a"
  }
}
`,
		"reference")
	CodeStageOrder = rule("MATCH029", "match-stage-order", "a stage is dated before the criteria commitment",
		"Criteria are committed before anything else: outcome.decided_at and every vote's collected_at must not precede committed_at.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "decided_at": "2026-11-29T05:35:27+00:00"
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "outcome": {
    "decided_at": "2026-11-30T05:35:27+00:00"
  }
}
`,
		"reference")
	CodeObservation = rule("MATCH030", "match-observation-write", "observation_write is malformed",
		"observation_write is {written: bool, gaia_package_ref?: non-empty string}; assembly writes written=false.",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "observation_write": {
    "written": "no"
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "observation_write": {
    "written": false
  }
}
`,
		"reference")
	CodeRationale = rule("MATCH031", "match-rationale", "rationale is blank",
		"rationale, when present, must be a non-empty string (it justifies a rematch).",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "rationale": "   "
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "rationale": "a rematch after the new pilot data"
}
`,
		"reference")
	CodeBinding = rule("MATCH032", "match-statement-binding", "statement_binding is malformed or names the wrong node",
		"statement_binding binds each side's statement: {a: {idea_node_id, content_sha256}, b: {...}}, node ids equal to the artifact's idea ids. nullius refuses a trailing newline after the hash, which the reference's $-anchored match lets through (W25).",
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "statement_binding": {
    "a": {
      "idea_node_id": "2a7d0e6f"
    }
  }
}
`,
		`$ nullius validate match match-5d0b3e21.json
-- match-5d0b3e21.json --
{
  "statement_binding": {
    "a": {
      "idea_node_id": "1f6c9d5e"
    }
  }
}
`,
		"reference")
	CodeVotePayload = rule("MATCH040", "vote-payload", "vote payload is malformed",
		"A judge's vote is {vote: a|b|tie, anchored_arguments: [{argument, anchor_type: literature|computation, anchor_ref}], unanchored_arguments_discarded: integer >= 0} (§4.5).",
		`$ nullius validate vote votes/host_seat_1.json
-- votes/host_seat_1.json --
{
  "reviewer_family": "host",
  "model": "host/host-subagent",
  "vote": "maybe",
  "anchored_arguments": [
    {
      "argument": "the pilot bounds the cost",
      "anchor_type": "computation",
      "anchor_ref": "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json"
    }
  ],
  "unanchored_arguments_discarded": 0,
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa",
  "collected_at": "2026-11-30T05:35:27+00:00",
  "collection": {
    "source": "injected",
    "vote_file": "seat1.txt",
    "reply_sha256": "sha256:158e51e5f7c5d42c3d5594873499df674c60ec82c1cad25e420ab4e9b35800af",
    "attempts": [
      {
        "attempt": 1,
        "ok": true
      }
    ]
  },
  "seat": 1
}
`,
		`$ nullius validate vote votes/host_seat_1.json
-- votes/host_seat_1.json --
{
  "reviewer_family": "host",
  "model": "host/host-subagent",
  "vote": "a",
  "anchored_arguments": [
    {
      "argument": "the pilot bounds the cost",
      "anchor_type": "computation",
      "anchor_ref": "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json"
    }
  ],
  "unanchored_arguments_discarded": 0,
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa",
  "collected_at": "2026-11-30T05:35:27+00:00",
  "collection": {
    "source": "injected",
    "vote_file": "seat1.txt",
    "reply_sha256": "sha256:158e51e5f7c5d42c3d5594873499df674c60ec82c1cad25e420ab4e9b35800af",
    "attempts": [
      {
        "attempt": 1,
        "ok": true
      }
    ]
  },
  "seat": 1
}
`,
		"reference")
	CodeVoteRecord = rule("MATCH041", "vote-record", "vote record is malformed",
		"A stored vote record adds reviewer_family, model, commitment_hash, collected_at, collection and (degraded panels) seat to the payload (§4.8).",
		`$ nullius validate vote votes/host_seat_1.json
-- votes/host_seat_1.json --
{
  "reviewer_family": "host",
  "model": "host/host-subagent",
  "vote": "a",
  "anchored_arguments": [
    {
      "argument": "the pilot bounds the cost",
      "anchor_type": "computation",
      "anchor_ref": "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json"
    }
  ],
  "unanchored_arguments_discarded": 0,
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa",
  "collection": {
    "source": "injected",
    "vote_file": "seat1.txt",
    "reply_sha256": "sha256:158e51e5f7c5d42c3d5594873499df674c60ec82c1cad25e420ab4e9b35800af",
    "attempts": [
      {
        "attempt": 1,
        "ok": true
      }
    ]
  },
  "seat": 1
}
`,
		`$ nullius validate vote votes/host_seat_1.json
-- votes/host_seat_1.json --
{
  "reviewer_family": "host",
  "model": "host/host-subagent",
  "vote": "a",
  "anchored_arguments": [
    {
      "argument": "the pilot bounds the cost",
      "anchor_type": "computation",
      "anchor_ref": "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json"
    }
  ],
  "unanchored_arguments_discarded": 0,
  "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa",
  "collected_at": "2026-11-30T05:35:27+00:00",
  "collection": {
    "source": "injected",
    "vote_file": "seat1.txt",
    "reply_sha256": "sha256:158e51e5f7c5d42c3d5594873499df674c60ec82c1cad25e420ab4e9b35800af",
    "attempts": [
      {
        "attempt": 1,
        "ok": true
      }
    ]
  },
  "seat": 1
}
`,
		"reference")
	CodeReport = rule("MATCH050", "panel-report", "panel_run_report.json is malformed",
		"The panel run report is checked as assembly reads it (§6.2 step 6): independence, families, panel_valid, min_families, votes_collected, absent, judge_prompt_sha256 and word_cap.",
		`$ nullius validate panel-report panel_run_report.json
-- panel_run_report.json --
{
  "panel_valid": "yes"
}
`,
		`$ nullius validate panel-report panel_run_report.json
-- panel_run_report.json --
{
  "panel_valid": true
}
`,
		"reference")
	CodeRosterShape = rule("ROSTER001", "roster-shape", "agents.json has the wrong top-level shape or version",
		"agents.json v1 is {version: 1, families: {...}, policy?: {...}, _notes?: any} (§5.2).",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 2,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterLabel = rule("ROSTER002", "roster-family-label", "family label is malformed",
		"Family labels match ^[a-z][a-z0-9_-]{0,31}$.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "GLM 5": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterFamily = rule("ROSTER003", "roster-family-entry", "family entry is malformed",
		"A family is {runner: native|codex|opencode|kimi|gemini|claude-cli, models, available?: bool, notes?: string}.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "warp-drive", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterModels = rule("ROSTER004", "roster-models", "family models are missing or not plain model strings",
		"models is a non-empty object with a default entry; keys match ^[a-z][a-z0-9_-]*$ and values ^[A-Za-z0-9][A-Za-z0-9._/:-]*$ (placeholders such as <CONFIRM-FROM-RUNNER> are refused).",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "<CONFIRM-FROM-RUNNER>"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterNative = rule("ROSTER005", "roster-native-count", "more than one family declares the native runner",
		"The host provides exactly one native seat.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "native", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterDedicated = rule("ROSTER006", "roster-dedicated-runner", "two families share one dedicated runner",
		"Every runner except native and opencode is dedicated to one family, available or not, or two seats would be one model twice.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "kimi", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterPair = rule("ROSTER007", "roster-identical-runner-model", "two families declare the same runner and model",
		"The same (runner, model) pair in two families, on any tier, is one judge counted twice.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
	CodeRosterPolicy = rule("ROSTER008", "roster-policy", "roster policy is malformed or lowers the floor",
		"policy is {cross_family_minimum: integer >= 3, when_below_minimum: \"native_subagents\"}; the protocol floor is 3 and a roster cannot lower it.",
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 2, "when_below_minimum": "native_subagents"}
}
`,
		`$ nullius validate roster agents.json
-- agents.json --
{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}
`,
		"reference")
)

// rule is an error rule of this family added in 0.1.0. The call inlines
// to a literal the linker lays out, so declaring a rule runs nothing at
// start.
func rule(code, name, title, text, bad, good, origin string) *diag.Rule {
	return &diag.Rule{Code: code, Name: name, Severity: diag.Error, Title: title, Text: text,
		Bad: bad, Good: good, Since: "0.1.0", Origin: origin, Owner: string(family)}
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		CodeJSON, CodeDuplicateKey, CodeSchema, CodeCommitmentShape, CodeCommitmentTime,
		CodeCommitmentCriteria, CodeCommitmentHash, CodeArtifactShape, CodeShortID, CodeSameNode,
		CodeIndependence, CodePanelEntry, CodeComposition, CodeRunners, CodeOutcome, CodeTally,
		CodeStageOrder, CodeObservation, CodeRationale, CodeBinding, CodeVotePayload, CodeVoteRecord,
		CodeReport, CodeRosterShape, CodeRosterLabel, CodeRosterFamily, CodeRosterModels,
		CodeRosterNative, CodeRosterDedicated, CodeRosterPair, CodeRosterPolicy,
	}
}

var _ = family.Declare(ruleList)
