package main

// limitsHelp ends the help of every command that reads user files: the
// size caps (internal/readlimit) a "nullius reads at most ..." error
// points at (issue 7). TestLimitsHelp keeps the numbers in step.
const limitsHelp = `

Input size limits: nullius reads at most 64 MiB from a JSON artifact (IR,
beliefs, survey, matrix, ledger, match artifact, panel report, idea card,
nodes file), 4 MiB from a roster, commitment, criteria file, vote or
posterior payload, and 8 MiB from a Markdown material (card summary,
statement, report). A bigger input is refused (exit 2) before it is parsed.`
