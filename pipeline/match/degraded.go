package match

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/readlimit"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// reply is one native seat's reply file as read.
type reply struct {
	n    int // 1-based seat number: the file's position on the command line
	data []byte
	err  error
}

// degraded is the native-subagent flow (§5.8): the roster cannot field the
// cross-family floor, so F independent host subagent seats answer instead.
func (p *panel) degraded(usable int) error {
	native, err := p.degradedPreconditions(usable)
	if err != nil {
		return err
	}
	absent := p.degradedAbsent(native, usable)
	if len(p.o.NativeVotes) < p.roster.Minimum {
		extra := matchproto.Object{{Key: "native_family", Value: native.Label}, {Key: "seats_provided", Value: len(p.o.NativeVotes)}, {Key: "seats_failed", Value: []any{}}}
		if err := p.writeReport(absent, "single_family", false, false, extra); err != nil {
			return err
		}
		return p.guidance(native, usable)
	}
	replies, err := p.readReplies()
	if err != nil {
		return err
	}
	var seats []seat
	failed := []any{}
	p.tally.Needed = p.roster.Minimum
	for _, r := range replies {
		o, fail := p.seatPayload(r)
		if fail != "" {
			failed = append(failed, matchproto.Object{{Key: "seat", Value: r.n}, {Key: "reason", Value: fail}})
			p.o.printf("seat absent: %s seat %d (%s)", native.Label, r.n, fail)
			p.seatDone(seat{family: native.Label, n: r.n, reason: fail}, 0)
			continue
		}
		coll := matchproto.Object{{Key: "source", Value: "injected"}, {Key: "vote_file", Value: p.o.NativeVotes[r.n-1]}, {Key: "reply_sha256", Value: digest.Of(r.data)},
			{Key: "attempts", Value: []any{matchproto.Object{{Key: "attempt", Value: 1}, {Key: "ok", Value: true}}}}}
		s := seat{key: fmt.Sprintf("%s_seat_%d", native.Label, r.n), family: native.Label, n: r.n,
			record: p.voteRecord(native.Label, native.Label+"/"+native.Model, o, coll, r.n)}
		seats = append(seats, s)
		p.seatDone(s, 0)
	}
	extra := matchproto.Object{{Key: "native_family", Value: native.Label}, {Key: "seats_provided", Value: len(p.o.NativeVotes)}, {Key: "seats_failed", Value: failed}}
	return p.finish(append(seats, absent...), "single_family", false, extra)
}

// degradedPreconditions refuses what a degraded panel cannot take: runner
// overrides, model specs, a missing native family, one file for two seats.
func (p *panel) degradedPreconditions(usable int) (matchproto.Family, error) {
	F := p.roster.Minimum
	if len(p.override) > 0 || len(p.specs) > 0 {
		return matchproto.Family{}, refuse("the roster fields %s of the %d required, so the panel degrades to native subagent seats, which take no --runner or --model-spec", usableFamilies(usable), F)
	}
	native, ok := p.roster.Native()
	if !ok || !native.Available {
		return matchproto.Family{}, refuse("the roster fields %s of the %d required and no available native family; the panel cannot run", usableFamilies(usable), F)
	}
	seen := map[string]int{}
	for i, f := range p.o.NativeVotes {
		abs, err := filepath.Abs(f)
		if err == nil {
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				abs = r
			}
		}
		if j, dup := seen[abs]; dup {
			return matchproto.Family{}, refuse("seat %d and seat %d name the same reply file (%s); every seat needs its own subagent's reply file", j+1, i+1, f)
		}
		seen[abs] = i
	}
	return native, nil
}

// degradedAbsent records every requested non-native family with its reason.
func (p *panel) degradedAbsent(native matchproto.Family, usable int) []seat {
	var absent []seat
	for _, lbl := range p.req {
		if lbl == native.Label {
			continue
		}
		f, _ := p.roster.Family(lbl)
		reason := p.unusableReason(f)
		if p.usable(f) {
			reason = fmt.Sprintf("cross-family floor not met (%d of %d usable); the panel degraded to native subagent seats and this seat was not run", usable, p.roster.Minimum)
		}
		absent = append(absent, seat{family: lbl, reason: reason})
	}
	return absent
}

// guidance is the exit-3 message: what to run, and how to hand it back.
func (p *panel) guidance(native matchproto.Family, usable int) error {
	F := p.roster.Minimum
	return &Error{Code: ExitDegraded, Msg: fmt.Sprintf("cross-family floor not met: the roster fields %s of the %d required "+
		"(usable = declared available and either native, overridden with --runner, or with its runner's executable on PATH); "+
		"policy when_below_minimum = native_subagents. Run %d independent host subagent seats (model %s), each answering %s "+
		"(system prompt %s) blind to the others; save each reply to its own file and re-run with one --native-vote FILE per seat "+
		"(%s given so far)", usableFamilies(usable), F, F, native.Model, p.promptP, p.systemP, plural.N(len(p.o.NativeVotes), "file"))}
}

// usableFamilies is "1 usable family", "2 usable families".
func usableFamilies(n int) string { return plural.N(n, "usable family", "usable families") }

// readReplies reads every seat file and refuses copies before anything is
// written: byte-identical replies (§5.8), and, beyond the reference (W12),
// replies equal up to whitespace.
func (p *panel) readReplies() ([]reply, error) {
	var replies []reply
	digests := map[string]int{}
	for i, f := range p.o.NativeVotes {
		b, err := readlimit.ReadFile(f, readlimit.Small)
		replies = append(replies, reply{n: i + 1, data: b, err: err})
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		h := hex.EncodeToString(sum[:])
		if j, dup := digests[h]; dup {
			return nil, refuse("seat %d's reply file (%s) is byte-identical to seat %d's; every seat needs its own subagent's reply", i+1, f, j)
		}
		digests[h] = i + 1
		if isUTF8(b) {
			ws := sha256.Sum256([]byte(matchproto.Collapse(string(b))))
			wh := "ws:" + hex.EncodeToString(ws[:])
			if j, dup := digests[wh]; dup {
				return nil, refuse("seat %d's reply file (%s) differs from seat %d's only in whitespace; every seat needs its own subagent's reply", i+1, f, j)
			}
			digests[wh] = i + 1
		}
	}
	return replies, nil
}

// seatPayload extracts and checks one seat's vote, or says why it failed.
func (p *panel) seatPayload(r reply) (matchproto.Object, string) {
	switch {
	case r.err != nil:
		return nil, "cannot read injected vote file: " + r.err.Error()
	case !isUTF8(r.data):
		return nil, "reply is not UTF-8 text"
	}
	o, err := matchproto.ExtractVote(matchproto.UniversalNewlines(string(r.data)), matchproto.ExampleVote())
	if err != nil {
		return nil, "no JSON object found in injected vote file"
	}
	if ps := vm.ValidateVotePayload(o, ""); len(ps) > 0 {
		return nil, "invalid vote payload: " + vm.Join(ps)
	}
	return o, p.checkEcho(o)
}
