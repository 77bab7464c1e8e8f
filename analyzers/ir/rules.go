package ir

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the rules of the compiled-IR checks.
const family = diag.Family("ir")

// The rules of the compiled-IR checks, reported by their variables. The IR
// checks also report GAIA501, GAIA506 (declared by analyzers/priors),
// GAIA502 (analyzers/coupling), GAIA507 (analyzers/readerflow) and GAIA508
// (analyzers/grades): each rule is declared once, by the check that finds
// it first, in the source.
var (
	codeNotJSON = &diag.Rule{Code: "GAIA100", Name: "ir-not-json-object", Severity: diag.Error,
		Title: "compiled ir.json is not a UTF-8 JSON object",
		Text: "The compiled IR must be strict JSON (UTF-8, no NaN/Infinity, nothing after the value) whose top level is an object. " +
			"A UTF-8 byte-order mark is accepted, as the reference does. Recompile with `gaia build compile <pkg>` instead of editing the file by hand.",
		Bad: `[1, 2]
`,
		Good: `{
  "namespace": "github",
  "package_name": "my_idea"
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeIRHash = &diag.Rule{Code: "GAIA101", Name: "ir-hash-not-canonical", Severity: diag.Error,
		Title: "compiled ir.json has no canonical Gaia ir_hash",
		Text: "`ir_hash` must be the string `sha256:` followed by 64 lower-case hex digits, as Gaia writes it. " +
			"A missing or altered hash means the file was not produced by a Gaia compile. The exact-byte pin supplements this marker, it does not replace it.",
		Bad: `{
  "ir_hash": "sha256:ABC"
}
`,
		Good: `{
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeKnowledgesList = &diag.Rule{Code: "GAIA102", Name: "knowledges-not-list", Severity: diag.Error,
		Title: "compiled ir.json has no knowledges list",
		Text:  "`knowledges` must be a JSON array of knowledge objects; without it no contract check can run. Recompile the package.",
		Bad: `{
  "knowledges": {}
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::worth",
      "label": "worth",
      "exported": true
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeKnowledgeID = &diag.Rule{Code: "GAIA103", Name: "knowledge-id-invalid", Severity: diag.Error,
		Title: "compiled knowledge is not an object with a unique id",
		Text: "Every element of `knowledges` must be an object whose `id` is a non-empty string, and no id may repeat: " +
			"strategies refer to knowledges by id, so a malformed or repeated id makes the graph ambiguous.",
		Bad: `{
  "knowledges": [
    {
      "id": "",
      "label": "side_note",
      "type": "note",
      "content": "Checked against the 2019 tables.",
      "exported": false
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::side_note",
      "label": "side_note",
      "type": "note",
      "content": "Checked against the 2019 tables.",
      "exported": false
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeDuplicateKey = &diag.Rule{Code: "GAIA104", Name: "ir-duplicate-key", Severity: diag.Error,
		Title: "compiled JSON repeats a member name inside one object",
		Text: "Gaia writes sorted, unique keys. A repeated key (Python keeps the last one silently) lets a reader of the file see one value " +
			"while the tools use another, so nullius refuses it as an error. Recompile instead of editing by hand.",
		Bad: `{
  "knowledges": [
    {"id": "github:my_idea::worth", "exported": false, "exported": true}
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::worth",
      "exported": true
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeWrongType = &diag.Rule{Code: "GAIA105", Name: "ir-field-wrong-type", Severity: diag.Error,
		Title: "compiled IR field has the wrong JSON type",
		Text: "A field the contract reads has a JSON type Gaia never writes (for example `strategies` that is not an array, `exported` that is not a boolean, " +
			"a strategy that is not an object). The reference silently skips such values, which can hide a statement from every check; nullius reports them at their pointer.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "exported": "false"
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "exported": false
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeExportedRoot = &diag.Rule{Code: "GAIA110", Name: "exported-root-not-unique", Severity: diag.Error,
		Title: "package must export exactly one conclusion labelled worth",
		Text: "Exactly one knowledge may have `exported: true`, and it must be the claim labelled `worth` " +
			"(the root module's `__all__` must be exactly [\"worth\"]). The posterior is the belief of that one node, and the pin binds the export flags.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::tension_resolution",
      "exported": true
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::tension_resolution",
      "exported": false
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeCardinality = &diag.Rule{Code: "GAIA120", Name: "reasoning-claim-cardinality", Severity: diag.Error,
		Title: "each reasoning claim label must appear exactly once",
		Text: "The labels worth, tension_resolution, downstream_reach, mechanism_insight, testability_timing and verification_cost must each label exactly one knowledge. " +
			"Labels are module variable names: `title=` does not set them.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::downstream_reach",
      "label": "reach"
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::downstream_reach",
      "label": "downstream_reach"
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeEmptyClaim = &diag.Rule{Code: "GAIA121", Name: "reasoning-claim-empty", Severity: diag.Error,
		Title: "reasoning claim has empty content",
		Text:  "Each reasoning claim must state its idea-specific proposition; blank content carries no meaning for the reader.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "content": "  "
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "content": "The gap is traced to a dropped scale-dependent term."
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeScaffoldText = &diag.Rule{Code: "GAIA122", Name: "reasoning-claim-scaffold-text", Severity: diag.Error,
		Title: "reasoning claim still carries the scaffold's generic axis text",
		Text: "The scaffold's stock sentences (and a legacy verification_cost wording) must be replaced by idea-specific text. " +
			"nullius compares after case-folding, collapsing whitespace and stripping final punctuation (W10), so dropping the period does not hide a stock sentence.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::worth",
      "content": "The idea merits sustained verification effort"
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::worth",
      "content": "Matching the two published widths at two loops is worth a month of work."
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeReaderReasoning = &diag.Rule{Code: "GAIA130", Name: "infer-missing-reader-reasoning-ir", Severity: diag.Error,
		Title: "compiled infer has no authored reader reasoning",
		Text: "The joined `steps[*].reasoning` of every compiled infer must start, before its anchor, with `reader_reasoning:` and an explanation. " +
			"An anchor or a criterion label alone is not reader-facing reasoning.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "steps": [
        {
          "reasoning": "The criterion is satisfied. anchor: idea card"
        }
      ]
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "steps": [
        {
          "reasoning": "reader_reasoning: a traced mechanism makes the matching likelier to hold up. anchor: idea card"
        }
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeInferShape = &diag.Rule{Code: "GAIA140", Name: "infer-strategy-shape", Severity: diag.Error,
		Title: "compiled infer does not have the supported shape",
		Text: "Every compiled infer must have one known string premise (the hypothesis), one known string conclusion (the evidence) and two finite " +
			"conditional probabilities in [0, 1] (not strings, not booleans). Conditional infers with `given=` are reported as GAIA508 instead.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_side",
      "type": "infer",
      "premises": [
        "github:my_idea::ev_rerun"
      ],
      "conclusion": "github:my_idea::ev_check",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the result bears on the hypothesis here. anchor: idea card"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::side",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "premises": ["github:my_idea::tension_resolution"],
      "conclusion": "github:my_idea::ev_check",
      "conditional_probabilities": [0.09, 0.9]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeCycle = &diag.Rule{Code: "GAIA141", Name: "reader-flow-cycle", Severity: diag.Error,
		Title: "compiled reader evidence-flow graph contains a cycle",
		Text: "Edges run from each infer's evidence to its hypothesis. A cycle anywhere lets evidence feed back into itself. " +
			"nullius detects it iteratively (the reference recursion can overflow on deep graphs).",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_loop",
      "type": "infer",
      "premises": [
        "github:my_idea::ev_check"
      ],
      "conclusion": "github:my_idea::tension_resolution",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the result bears on the hypothesis here. anchor: idea card"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::loop",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "premises": [
        "github:my_idea::tension_resolution"
      ],
      "conclusion": "github:my_idea::ev_check"
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeAmbiguousObs = &diag.Rule{Code: "GAIA142", Name: "observation-record-ambiguous", Severity: diag.Error,
		Title: "observed knowledge carries more than one observation record",
		Text:  "An observed knowledge must carry exactly one observation so its evidence family is unambiguous. Merge the observations into one.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_rerun",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the rerun agrees. anchor: results/rerun.md"
          }
        ]
      }
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_check",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the check ran on the published inputs. anchor: results/first-check.md"
          }
        ]
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeObsFamily = &diag.Rule{Code: "GAIA143", Name: "observation-family-ir", Severity: diag.Error,
		Title: "compiled observation does not declare one evidence family",
		Text: "Every observation rationale must declare exactly one `evidence_family: <stable-token>;` and exactly one `correlation_model: single;` before its anchor. " +
			"Gaia 0.5.0a4 does not encode a joint likelihood for correlated observations.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_check",
            "pattern": "observation",
            "rationale": "the check ran on the published inputs. anchor: results/first-check.md"
          }
        ]
      }
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_check",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the check ran on the published inputs. anchor: results/first-check.md"
          }
        ]
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeObsAnchor = &diag.Rule{Code: "GAIA144", Name: "observation-anchor-ir", Severity: diag.Error,
		Title: "compiled observation rationale has no non-empty anchor",
		Text:  "The text after the first `anchor:` of an observation rationale must not be blank: the anchor names the artifact the observation comes from.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_check",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the check ran on the published inputs. anchor:  "
          }
        ]
      }
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_check",
      "metadata": {
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_check",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the check ran on the published inputs. anchor: results/first-check.md"
          }
        ]
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeFanout = &diag.Rule{Code: "GAIA145", Name: "observation-fanout", Severity: diag.Error,
		Title: "observation supplies several likelihood updates toward worth",
		Text: "An observation may feed at most one direct update that reaches worth (duplicated infers count twice). " +
			"Model one shared dependency update, then propagate that claim to the criteria.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_check_again",
      "type": "infer",
      "premises": [
        "github:my_idea::tension_resolution"
      ],
      "conclusion": "github:my_idea::ev_check",
      "conditional_probabilities": [
        0.09,
        0.9
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the check closes the gap, which a failed matching would rarely do. resolution_evidence: discriminating_test. anchor: results/first-check.md"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::check_again",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "premises": [
        "github:my_idea::tension_resolution"
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeMultipath = &diag.Rule{Code: "GAIA146", Name: "observation-multipath", Severity: diag.Error,
		Title: "observation reaches worth through more than one path",
		Text:  "Branching one observation into several worth paths counts the same evidence more than once. Collapse the evidence into one criterion path.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_tension_mechanism",
      "type": "infer",
      "premises": [
        "github:my_idea::mechanism_insight"
      ],
      "conclusion": "github:my_idea::tension_resolution",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the result bears on the hypothesis here. anchor: idea card"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::tension_mechanism",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_tension_mechanism",
      "type": "infer",
      "premises": [
        "github:my_idea::mechanism_insight"
      ],
      "conclusion": "github:my_idea::downstream_reach",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the result bears on the hypothesis here. anchor: idea card"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::tension_mechanism",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeFamilyReused = &diag.Rule{Code: "GAIA147", Name: "evidence-family-reused", Severity: diag.Error,
		Title: "evidence family reused by several observations reaching worth",
		Text: "Gaia 0.5.0a4 multiplies the likelihoods of observations even when their arrows meet at one claim, so at most one observation per evidence family " +
			"may reach worth. Collapse the correlated material into one composite observation. Disconnected observations may repeat a family.",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_rerun",
      "label": "ev_rerun",
      "type": "claim",
      "exported": false,
      "content": "A rerun on the 2019 inputs reproduces the closed gap.",
      "metadata": {
        "prior": 0.999,
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_rerun",
            "pattern": "observation",
            "rationale": "evidence_family: executed-check; correlation_model: single; the same check on older inputs. anchor: results/rerun.md"
          }
        ]
      }
    }
  ],
  "strategies": [
    {
      "strategy_id": "lcs_rerun",
      "type": "infer",
      "premises": [
        "github:my_idea::downstream_reach"
      ],
      "conclusion": "github:my_idea::ev_rerun",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: a reproduced result is likelier if later fits can reuse it. anchor: results/rerun.md"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::rerun",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::ev_rerun",
      "label": "ev_rerun",
      "type": "claim",
      "exported": false,
      "content": "A rerun on the 2019 inputs reproduces the closed gap.",
      "metadata": {
        "prior": 0.999,
        "supported_by": [
          {
            "action_label": "github:my_idea::action::observe_rerun",
            "pattern": "observation",
            "rationale": "evidence_family: rerun-2019; correlation_model: single; an independent rerun on older inputs. anchor: results/rerun.md"
          }
        ]
      }
    }
  ],
  "strategies": [
    {
      "strategy_id": "lcs_rerun",
      "type": "infer",
      "premises": [
        "github:my_idea::downstream_reach"
      ],
      "conclusion": "github:my_idea::ev_rerun",
      "conditional_probabilities": [
        0.25,
        0.75
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: a reproduced result is likelier if later fits can reuse it. anchor: results/rerun.md"
        }
      ],
      "metadata": {
        "action_label": "github:my_idea::action::rerun",
        "pattern": "inference"
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "reference", Owner: string(family)}
	codeOffGrade = &diag.Rule{Code: "GAIA150", Name: "ir-infer-off-grade", Severity: diag.Error,
		Title: "compiled infer probabilities are not one of the six grades",
		Text: "IR backstop of GAIA010/011 (W6), never downgradable: every compiled two-probability infer must carry " +
			"[p_e_given_not_h, p_e_given_h] in {[0.25,0.75], [0.09,0.9], [0.03,0.9], [0.75,0.25], [0.9,0.09], [0.9,0.03]}, " +
			"and Gaia must not have defaulted p_e_given_not_h to 0.5. It catches whatever reached the compiler past the source scan (helpers, exec, hand edits).",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "conditional_probabilities": [
        0.2,
        0.8
      ]
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "conditional_probabilities": [
        0.25,
        0.75
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeTrailingAnchor = &diag.Rule{Code: "GAIA151", Name: "ir-anchor-not-trailing", Severity: diag.Error,
		Title: "compiled reasoning does not end with an anchor line",
		Text:  "IR backstop of GAIA032 (W6): every compiled infer reasoning and observation rationale must end with `anchor: <reference>` on its last line.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "steps": [
        {
          "reasoning": "reader_reasoning: a traced mechanism makes the matching likelier to hold up. anchor: idea card\nrevised after the review"
        }
      ]
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_mechanism_insight",
      "steps": [
        {
          "reasoning": "reader_reasoning: a traced mechanism makes the matching likelier to hold up. anchor: idea card"
        }
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeReachDomains = &diag.Rule{Code: "GAIA152", Name: "ir-strong-reach-missing-domains", Severity: diag.Error,
		Title: "compiled strong raise of downstream_reach has no domains clause",
		Text: "IR backstop of GAIA013 (W3, W6): a compiled infer at [0.03, 0.9] whose hypothesis is the knowledge labelled or titled `downstream_reach` " +
			"must carry `domains: <one>; <two>; <three>` before its anchor. On the IR the identity is exact, so helpers and aliases cannot skip the check. " +
			"The clause is read exactly as the source rule GAIA013 reads it (it ends with its sentence, may continue across lines, entries must be distinct).",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "premises": [
        "github:my_idea::downstream_reach"
      ],
      "conditional_probabilities": [
        0.03,
        0.9
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: the closed gap will be reused widely. anchor: results/first-check.md"
        }
      ]
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "premises": [
        "github:my_idea::downstream_reach"
      ],
      "conditional_probabilities": [
        0.03,
        0.9
      ],
      "steps": [
        {
          "reasoning": "reader_reasoning: domains: branching-ratio fits; lattice inputs; collider backgrounds. the closed gap will be reused widely. anchor: results/first-check.md"
        }
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeTensionClass = &diag.Rule{Code: "GAIA153", Name: "ir-tension-raise-missing-class", Severity: diag.Error,
		Title: "compiled raise of tension_resolution has no resolution class",
		Text: "IR backstop of GAIA014 (W3, W6): a compiled infer raising (p_e_given_h > p_e_given_not_h) the knowledge labelled or titled `tension_resolution` " +
			"must classify its evidence as `resolution_evidence: mechanism|discriminating_test|demonstrated_partial_resolution` before its anchor.",
		Bad: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "steps": [
        {
          "reasoning": "reader_reasoning: the survey shows the gap is real. anchor: results/first-check.md"
        }
      ]
    }
  ]
}
`,
		Good: `{
  "strategies": [
    {
      "strategy_id": "lcs_check",
      "steps": [
        {
          "reasoning": "reader_reasoning: the check closes the gap, which a failed matching would rarely do. resolution_evidence: discriminating_test. anchor: results/first-check.md"
        }
      ]
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codePriorRecord = &diag.Rule{Code: "GAIA154", Name: "ir-prior-record-invalid", Severity: diag.Error,
		Title: "compiled prior record lacks an anchor or leaves [0.001, 0.999]",
		Text: "IR backstop of GAIA020/032 (W6): every `metadata.prior_records[*]` must have a justification ending with `anchor: <reference>` " +
			"and a numeric value within Gaia's Cromwell bounds [0.001, 0.999].",
		Bad: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "metadata": {
        "prior_records": [
          {
            "source_id": "user_priors",
            "value": 0.7,
            "justification": "seems likely"
          }
        ]
      }
    }
  ]
}
`,
		Good: `{
  "knowledges": [
    {
      "id": "github:my_idea::mechanism_insight",
      "metadata": {
        "prior_records": [
          {
            "source_id": "user_priors",
            "value": 0.7,
            "justification": "the survey's share of mechanism papers. anchor: close-prior matrix row 4"
          }
        ]
      }
    }
  ]
}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	GAIA212 = &diag.Rule{Code: "GAIA212", Name: "beliefs-stale", Severity: diag.Error,
		Title: "beliefs.json was computed from a different compile",
		Text: "`beliefs.json`'s `ir_hash` must equal `ir.json`'s (W11); otherwise the posterior value and the pin come from different compiles. " +
			"Re-run `gaia run infer <pkg>` after every compile.",
		Bad: `{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
}
`,
		Good: `{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Input: ".gaia/beliefs.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	codeIRStale = &diag.Rule{Code: "GAIA213", Name: "ir-older-than-sources", Severity: diag.Warning,
		Title: "compiled ir.json is older than a package source file",
		Text: "A `.py` file of the package was modified after `.gaia/ir.json` was written, so the IR checks may describe an old graph. " +
			"Recompile with `gaia build compile <pkg>` (or `nullius extract`).",
		Bad: `-- src/my_idea/notes.py --
"""Reading notes, added after the last compile."""
`,
		Good: `-- src/my_idea/notes.py --
"""Reading notes, added before the last compile."""
-- .gaia/ir.json --
{}
`,
		Input: ".gaia/ir.json",
		Since: "0.1.0", Origin: "nullius", Owner: string(family)}
	GAIA206 = &diag.Rule{
		Code: "GAIA206", Name: "inference-artifacts-missing", Severity: diag.Error,
		Title: "beliefs.json or ir.json is missing after the gaia stages",
		Text: "Extraction reads .gaia/beliefs.json (written by gaia run infer) and .gaia/ir.json " +
			"(written by gaia build compile). Run the inference stages first.",
		Bad: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json/README --
gaia run infer wrote a directory where beliefs.json belongs.
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA207 = &diag.Rule{
		Code: "GAIA207", Name: "beliefs-not-json", Severity: diag.Error,
		Title: "beliefs.json is not a JSON object with a beliefs list",
		Text: "beliefs.json must be UTF-8 JSON: an object whose beliefs member is a list of objects " +
			"{label, belief}. Re-run gaia run infer.",
		Bad: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
[]
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA208 = &diag.Rule{
		Code: "GAIA208", Name: "worth-belief-not-unique", Severity: diag.Error,
		Title: "beliefs.json does not hold exactly one belief labelled worth",
		Text: "The posterior is the belief of the claim bound to the module variable worth. " +
			"Bind the top-level claim to a variable named worth.",
		Bad: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::root",
      "label": "root"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA209 = &diag.Rule{
		Code: "GAIA209", Name: "worth-belief-out-of-range", Severity: diag.Error,
		Title: "the worth belief is not a number in [0, 1]",
		Text: "The worth belief must be a JSON number (not a boolean) in [0, 1]. A value outside is a " +
			"broken beliefs.json; re-run gaia run infer.",
		Bad: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 1.7,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/.gaia/beliefs.json --
{
  "beliefs": [
    {
      "belief": 0.8427,
      "knowledge_id": "github:my_idea::worth",
      "label": "worth"
    }
  ],
  "ir_hash": "sha256:9c91831173b8992d0c87bcd78a5351056350d17a626d2510740d8b97f7fa68f4"
}
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		codeNotJSON, codeIRHash, codeKnowledgesList, codeKnowledgeID, codeDuplicateKey,
		codeWrongType, codeExportedRoot, codeCardinality, codeEmptyClaim, codeScaffoldText,
		codeReaderReasoning, codeInferShape, codeCycle, codeAmbiguousObs, codeObsFamily,
		codeObsAnchor, codeFanout, codeMultipath, codeFamilyReused, codeOffGrade, codeTrailingAnchor,
		codeReachDomains, codeTensionClass, codePriorRecord, GAIA212, codeIRStale, GAIA206, GAIA207,
		GAIA208, GAIA209,
	}
}

var _ = family.Declare(ruleList)
