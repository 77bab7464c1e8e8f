package fakes

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"
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
//
// --discards N sets unanchored_arguments_discarded (default 1); --tag TEXT
// adds a "note" key so two replies with equal votes differ in bytes.
func JudgeMain() {
	fs := flag.NewFlagSet("fake-judge", flag.ExitOnError)
	mode := fs.String("mode", os.Getenv("FAKE_JUDGE_MODE"), "behaviour")
	prompt := fs.String("prompt", "", "prompt file (default stdin)")
	fs.String("system", "", "system prompt file (ignored)")
	discards := fs.Int("discards", 1, "self-reported unanchored discards")
	tag := fs.String("tag", "", "extra note to make replies differ")
	_ = fs.Parse(os.Args[1:])
	var text []byte
	var err error
	if *prompt != "" {
		text, err = os.ReadFile(*prompt)
	} else {
		text, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-judge:", err)
		os.Exit(2)
	}
	kind, arg, _ := strings.Cut(*mode, ":")
	vote := func(v, extra string) string {
		return fmt.Sprintf("```json\n{\"vote\": %q, \"anchored_arguments\": [{\"argument\": \"the pilot bounds the cost\", \"anchor_type\": \"computation\", \"anchor_ref\": \"artifact://campaign/toy/computations/adaptive-enrichment-pilot.json\"}], \"unanchored_arguments_discarded\": %d, \"note\": %q%s}\n```\n", v, *discards, *tag, extra)
	}
	switch kind {
	case "vote":
		fmt.Print("I compared both statements under the committed criteria.\n\n" + vote(arg, ""))
	case "echo":
		m := regexp.MustCompile(`"judge_prompt_sha256": "(sha256:[0-9a-f]{64})"`).FindSubmatch(text)
		if m == nil {
			fmt.Fprintln(os.Stderr, "fake-judge: the prompt has no binding block")
			os.Exit(2)
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
		os.Exit(1)
	case "timeout":
		time.Sleep(time.Hour)
	case "flaky":
		if _, err := os.Stat(arg); err != nil {
			_ = os.WriteFile(arg, []byte("ran\n"), 0o644)
			fmt.Fprintln(os.Stderr, "fake-judge: flaky first run")
			os.Exit(1)
		}
		fmt.Print(vote("a", ""))
	default:
		fmt.Fprintf(os.Stderr, "fake-judge: unknown --mode %q\n", *mode)
		os.Exit(2)
	}
}
