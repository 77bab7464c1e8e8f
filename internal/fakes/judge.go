package fakes

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// JudgeMain is fake-judge, a stand-in for a judge CLI. It reads the prompt
// from --prompt FILE (or stdin) and answers according to --mode (or
// $FAKE_JUDGE_MODE):
//
//	vote:a|b|tie    prose, then a fenced vote (one anchored argument)
//	echo:a|b|tie    the same plus the prompt's judge_prompt_sha256 (a native seat)
//	quote:a|b|tie   quotes the prompt's shape example in a fence, then votes
//	garbage         prose without JSON
//	fail            exit 1
//	timeout         sleep far beyond any test timeout
//	flaky:MARKER    fail (exit 1) when MARKER does not exist, creating it; else vote a
//	argue:a|b|tie   a stub that reads the statements: it votes and credits the
//	                first anchor ([anchor: TYPE -> REF]) of the statement it
//	                votes for (of statement A for a tie), so the argument is
//	                card evidence the panel keeps; the demo judge of `nullius demo`
//
// --discards N sets unanchored_arguments_discarded (default 1); --tag TEXT
// adds a "note" key so two replies with equal votes differ in bytes;
// --wait-for FILE waits until FILE exists before answering (a test holds a
// judge "running" until it creates the file).
func JudgeMain() { os.Exit(judgeRun(os.Args[1:])) }

func judgeRun(args []string) int {
	fs := flag.NewFlagSet("fake-judge", flag.ContinueOnError)
	mode := fs.String("mode", os.Getenv("FAKE_JUDGE_MODE"), "behaviour")
	prompt := fs.String("prompt", "", "prompt file (default stdin)")
	fs.String("system", "", "system prompt file (ignored)")
	discards := fs.Int("discards", 1, "self-reported unanchored discards")
	tag := fs.String("tag", "", "extra note to make replies differ")
	waitFor := fs.String("wait-for", "", "answer only once this file exists")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for *waitFor != "" {
		if _, err := os.Stat(*waitFor); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond) // polled: the test creates the file when it wants the answer
	}
	var text []byte
	var err error
	if *prompt != "" {
		text, err = readlimit.ReadFile(*prompt, readlimit.Markdown)
	} else {
		text, err = readlimit.ReadStream(os.Stdin, "the prompt on stdin", readlimit.Markdown)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-judge:", err)
		return 2
	}
	kind, arg, _ := strings.Cut(*mode, ":")
	argument, anchorType, anchorRef := "the pilot bounds the cost", "computation", "artifact://campaign/toy/computations/adaptive-enrichment-pilot.json"
	vote := func(v, extra string) string {
		return fmt.Sprintf("```json\n{\"vote\": %q, \"anchored_arguments\": [{\"argument\": %q, \"anchor_type\": %q, \"anchor_ref\": %q}], \"unanchored_arguments_discarded\": %d, \"note\": %q%s}\n```\n",
			v, argument, anchorType, anchorRef, *discards, *tag, extra)
	}
	switch kind {
	case "vote":
		fmt.Print("I compared both statements under the committed criteria.\n\n" + vote(arg, ""))
	case "echo":
		m := regexp.MustCompile(`"judge_prompt_sha256": "(sha256:[0-9a-f]{64})"`).FindSubmatch(text)
		if m == nil {
			fmt.Fprintln(os.Stderr, "fake-judge: the prompt has no binding block")
			return 2
		}
		fmt.Print("Native seat reply.\n\n" + vote(arg, fmt.Sprintf(", \"judge_prompt_sha256\": %q", m[1])))
	case "quote":
		m := regexp.MustCompile("(?s)```json\n(\\{\"vote\": \"tie\".*?)\n```").FindSubmatch(text)
		if m != nil {
			fmt.Printf("The prompt asks for this shape:\n\n```json\n%s\n```\n\nMy answer:\n\n", m[1])
		}
		fmt.Print(vote(arg, ""))
	case "garbage":
		fmt.Println("I would rather not vote today.")
	case "fail":
		fmt.Fprintln(os.Stderr, "fake-judge: failing as asked")
		return 1
	case "timeout":
		time.Sleep(time.Hour)
	case "flaky":
		if _, err := os.Stat(arg); err != nil {
			_ = os.WriteFile(arg, []byte("ran\n"), 0o644)
			fmt.Fprintln(os.Stderr, "fake-judge: flaky first run")
			return 1
		}
		fmt.Print(vote("a", ""))
	case "argue":
		side := arg
		if side == "tie" {
			side = "a"
		}
		a := statementAnchor(text, side)
		if a == nil {
			fmt.Fprintf(os.Stderr, "fake-judge: the prompt's statement %s cites no [anchor: TYPE -> REF]\n", strings.ToUpper(side))
			return 2
		}
		argument = "the statement's own evidence: " + string(a[1])
		anchorType, anchorRef = string(a[2]), string(a[3])
		*discards = 0
		fmt.Printf("Stub judge (it reads no argument, it only votes as told): %s.\n\n%s", arg, vote(arg, ""))
	default:
		fmt.Fprintf(os.Stderr, "fake-judge: unknown --mode %q\n", *mode)
		return 2
	}
	return 0
}

// statementAnchor finds the first anchored sentence of the advocacy
// statement for side (a or b) in a judge prompt: the sentence, the anchor
// type and the reference.
func statementAnchor(prompt []byte, side string) [][]byte {
	head := []byte("Advocacy statement for Idea " + strings.ToUpper(side))
	i := bytes.Index(prompt, head)
	if i < 0 {
		return nil
	}
	body := prompt[i+len(head):]
	if j := bytes.Index(body, []byte("Advocacy statement for Idea ")); j >= 0 {
		body = body[:j]
	}
	return anchorRE.RE().FindSubmatch(body)
}

var anchorRE = lazyre.New(`(?m)^([^\n\[]*?)\s*\[anchor: ([a-z_]+) -> ([^\]\s]+)\]`)
