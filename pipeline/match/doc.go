// Package match holds the gated steps of the pairwise-match protocol
// (spec pairwise-match.md): writing the criteria commitment, rendering card
// summaries and statement requests, verifying and rebuilding statements,
// rendering the judge prompt, running the judge panel (roster discovery,
// runners, degraded native seats, panel_run_report.json) and assembling
// pairwise_match_v1.
//
// Every step runs its checks before it writes or runs anything and refuses
// on the first failure: nothing reaches a judge and no artifact is written
// unless every check before it passed. The protocol model lives in
// internal/matchproto, the validators in validators/match.
//
// Each step holds the nullius locks (<dir>/.nullius.lock, a lockfile.Set)
// of the directories it reads as a set or writes, so two steps working in
// one match directory at once cannot interleave their writes or read each
// other's half-finished set of files (issue 7). Steps lock in one global
// order, work directories (materials, panel) before the campaign's matches
// directory, so two steps never wait on each other in a cycle; and every
// wait is bounded anyway (lockfile.Wait).
package match

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Exit statuses the protocol defines (§0.3), carried by *Error.
const (
	ExitRefused  = 1 // a contract violation refused the step
	ExitInvalid  = 2 // panel invalid (vote floor not met) / artifact refused
	ExitDegraded = 3 // degraded panel: native seat replies are needed
)

// Error is a refusal with the exit status the protocol gives it.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func refuse(format string, args ...any) error {
	return &Error{Code: ExitRefused, Msg: fmt.Sprintf(format, args...)}
}

// ExitCode returns the protocol exit status of err (1 for plain errors).
func ExitCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ExitRefused
}

// Clock returns the current time; steps take it as a parameter so tests
// can fix it.
type Clock func() time.Time

func (c Clock) now() time.Time {
	if c == nil {
		return time.Now().UTC()
	}
	return c().UTC()
}

// readJSON reads and strictly decodes a JSON file (duplicate keys refused)
// of at most k's size cap. An oversized or non-regular file is a plain
// error (exit 2, an I/O failure), not a protocol refusal.
func readJSON(path, what string, k readlimit.Kind) (any, error) {
	b, err := readlimit.ReadFile(path, k)
	if err != nil {
		if readlimit.Refused(err) {
			return nil, err
		}
		return nil, refuse("cannot read %s %s: %v", what, path, err)
	}
	d, err := matchproto.Decode(b)
	if err != nil {
		return nil, refuse("%s %s is not valid JSON: %v", what, path, err)
	}
	if len(d.Duplicates) > 0 {
		return nil, refuse("%s %s repeats the key at %s; readers disagree on which value counts", what, path, strings.Join(d.Duplicates, ", "))
	}
	return d.Value, nil
}

// readText reads a UTF-8 Markdown material with universal newlines, as the
// reference's read_text does.
func readText(path string) (string, error) {
	b, err := readlimit.ReadFile(path, readlimit.Markdown)
	if err != nil {
		return "", err
	}
	if !isUTF8(b) {
		return "", fmt.Errorf("%s is not UTF-8 text", path)
	}
	return matchproto.UniversalNewlines(string(b)), nil
}
