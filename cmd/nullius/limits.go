package main

// limitsHelp ends the help of every command that reads user files: the
// size caps (internal/readlimit) a "nullius reads at most ..." error
// points at (issue 7), and the regular-files-only rule (issue 13).
// TestLimitsHelp keeps the numbers in step.
const limitsHelp = `

Input limits: nullius reads only regular files (a FIFO, device, socket or
directory where a file belongs is refused before it is opened), and at most
64 MiB from a JSON artifact (IR, beliefs, survey, matrix, ledger, match
artifact, panel report, idea card, nodes file), 4 MiB from a roster,
commitment, criteria file, vote or posterior payload, 8 MiB from a Markdown
material (card summary, statement, report), 1 MiB from a TOML configuration
file (pyproject.toml, nullius.toml) and 8 MiB from a Python source file. A
bigger input is refused (exit 2) before it is parsed.`
