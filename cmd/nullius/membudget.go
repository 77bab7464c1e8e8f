package main

import (
	"math"
	"runtime/debug"
	"slices"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/readlimit"
)

// The memory budget of the document commands (issue 13: memory proportional
// to input). Their live memory is a few times their input (the bytes, the
// decoded values, the positions), but with Go's default pacing the heap may
// grow to twice the live memory between collections, and freed pages are
// returned lazily. These commands therefore run under a soft memory limit
// that starts at memoryBase and grows by memoryFactor times every byte the
// bounded reader returns: the collector then keeps the whole process within
// that budget, and a command with little input pays nothing for it. The
// commands that parse Python (lint, extract, absorb, writeback) keep Go's
// default: tree-sitter's memory is not the Go heap's, and their budget is
// the lint engine's business.
const (
	memoryBase   = 48 << 20
	memoryFactor = 6
	budgetKey    = "memory-budget"
)

// budgetedCommands are the commands (by path under the root) that run under
// the budget, with all their subcommands.
var budgetedCommands = [][]string{
	{"validate"}, {"gate"}, {"report"}, {"render"},
	{"match", "pairs"}, {"match", "commit"}, {"match", "render"}, {"match", "assemble"},
}

// markBudgeted annotates the budgeted commands of root. A tree built for
// one command (rootCmd with args) holds only that command's part.
func markBudgeted(root *cobra.Command) {
	for _, path := range budgetedCommands {
		if !slices.ContainsFunc(root.Commands(), func(c *cobra.Command) bool { return c.Name() == path[0] }) &&
			len(root.Commands()) == 1 {
			continue
		}
		cmd, rest, err := root.Find(path)
		if err != nil || len(rest) > 0 || cmd == root {
			panic("membudget: no command " + path[len(path)-1])
		}
		if cmd.Annotations == nil {
			cmd.Annotations = map[string]string{}
		}
		cmd.Annotations[budgetKey] = "yes"
	}
}

// hasBudget reports whether cmd or one of its parents is budgeted.
func hasBudget(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[budgetKey] != "" {
			return true
		}
	}
	return false
}

// budgetMemory puts the process under the budget and returns the function
// that lifts it (run calls it when the command ends, so in-process tests
// do not inherit it).
func budgetMemory() (lift func()) {
	start := readlimit.Total()
	prev := debug.SetMemoryLimit(memoryBase)
	readlimit.Observe(func(total int64) {
		debug.SetMemoryLimit(memoryBase + memoryFactor*(total-start))
	})
	return func() {
		readlimit.Observe(nil)
		if prev <= 0 {
			prev = math.MaxInt64
		}
		debug.SetMemoryLimit(prev)
	}
}
