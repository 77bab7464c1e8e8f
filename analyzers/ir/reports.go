package ir

// reported lists every code the IR checks can report, their own and the
// foreign ones (see rules.go).
var reported = map[string]bool{
	codeNotJSON: true, codeIRHash: true, codeKnowledgesList: true, codeKnowledgeID: true,
	codeDuplicateKey: true, codeWrongType: true, codeExportedRoot: true, codeCardinality: true,
	codeEmptyClaim: true, codeScaffoldText: true, codeReaderReasoning: true, codeInferShape: true,
	codeCycle: true, codeAmbiguousObs: true, codeObsFamily: true, codeObsAnchor: true,
	codeFanout: true, codeMultipath: true, codeFamilyReused: true, codeOffGrade: true,
	codeTrailingAnchor: true, codeReachDomains: true, codeTensionClass: true, codePriorRecord: true,
	codeArtifactMissing: true, codeBeliefsJSON: true, codeWorthLabel: true, codeWorthRange: true,
	codeBeliefsStale: true, codeIRStale: true, codeInlinePrior: true, codeUngradedCouple: true,
	codeWorthPrior: true, codeDisconnected: true, codeInferGiven: true,
}

// Reports reports whether the IR checks can report code. When they are
// skipped (lint --no-ir, a partial lint, an editor linting as you type), a
// suppression naming such a code cannot be judged unused.
func Reports(code string) bool { return reported[code] }
