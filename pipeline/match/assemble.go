package match

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/shortid"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// AssembleOptions configure `match assemble` (assemble_match.py).
type AssembleOptions struct {
	Commitment, VotesDir, CampaignDir, MaterialsDir string
	CampaignID, IdeaA, IdeaB, MatchID, Rationale    string
	Now                                             Clock
	Templates                                       Templates
	Out                                             func(format string, args ...any)
}

// Assembled is the written artifact and what the CLI prints.
type Assembled struct {
	Path     string
	Artifact matchproto.Object
	Lines    []string
	Tier     int
}

// MintShortID draws an engine short id from a CSPRNG.
func MintShortID() (string, error) {
	var b strings.Builder
	for range 8 {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(shortid.Alphabet))))
		if err != nil {
			return "", err
		}
		b.WriteByte(shortid.Alphabet[n.Int64()])
	}
	return b.String(), nil
}

type vote struct {
	family string
	seat   int64
	rec    matchproto.Object
}

// Assemble re-checks the integrity thread, tallies, maps the tier and
// writes pairwise_match_v1 with observation_write.written=false (§6.2).
// Every refusal is an *Error with exit status 2.
func Assemble(o AssembleOptions) (*Assembled, error) {
	a, err := assemble(o)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Code = ExitInvalid
		}
		return nil, err
	}
	return a, nil
}

func assemble(o AssembleOptions) (*Assembled, error) {
	if o.Templates == (Templates{}) {
		o.Templates = DefaultTemplates()
	}
	// The work directories stay locked from the first read to the write,
	// so a concurrent render or panel cannot change what was checked.
	var lk lockfile.Set
	defer lk.Release()
	// Materials first, then the panel directory: the order `match panel`
	// takes them in.
	if err := lk.Add(o.MaterialsDir); err != nil {
		return nil, err
	}
	if err := lk.Add(filepath.Dir(filepath.Clean(o.VotesDir))); err != nil {
		return nil, err
	}
	commitment, matchID, err := checkInputs(&o)
	if err != nil {
		return nil, err
	}
	hash := mustString(commitment, "commitment_hash")
	committedAt, _ := matchproto.ParseTime(mustGet(commitment, "committed_at"))
	binding, err := crossCheckMaterials(o.MaterialsDir, commitment, o.IdeaA, o.IdeaB)
	if err != nil {
		return nil, err
	}
	report, err := readPanelReport(o.VotesDir, o.MaterialsDir, hash, o.Templates)
	if err != nil {
		return nil, err
	}
	votes, err := loadVotes(o.VotesDir, hash, committedAt, report)
	if err != nil {
		return nil, err
	}
	if err := checkOverrideTaint(report, votes); err != nil {
		return nil, err
	}
	// The rematch guard and the write form one critical section under the
	// matches directory's lock: two assemblies of one pair racing each other
	// would otherwise both pass the guard and write two artifacts.
	matches := filepath.Join(o.CampaignDir, "artifacts", "matches")
	if err := contained(o.CampaignDir, filepath.Join("artifacts", "matches")); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(matches, 0o755); err != nil {
		return nil, fmt.Errorf("could not create %q: %w", matches, err)
	}
	if err := lk.Add(matches); err != nil {
		return nil, err
	}
	if err := rematchGuard(o.CampaignDir, o.IdeaA, o.IdeaB, o.Rationale); err != nil {
		return nil, err
	}
	var vs []string
	for _, v := range votes {
		vs = append(vs, mustString(v.rec, "vote"))
	}
	tally, err := matchproto.Tally(vs)
	if err != nil {
		return nil, refuse("%v", err)
	}
	tier, tierLabel, err := matchproto.Tier(tally)
	if err != nil {
		return nil, refuse("%v", err)
	}
	a := &Assembled{Tier: tier}
	a.Artifact = buildArtifact(a, &o, matchID, commitment, report, votes, tally, binding)
	if a.Path, err = writeArtifact(o.CampaignDir, matchID, a.Artifact); err != nil {
		return nil, err
	}
	var pl []string
	for _, p := range mustGet(report, "families_present").([]any) {
		pl = append(pl, p.(string))
	}
	a.Lines = append(a.Lines,
		fmt.Sprintf("panel independence: %s (present: %s)", mustString(report, "independence"), strings.Join(pl, ", ")),
		fmt.Sprintf("winner: %s (vote_margin %.4f)", tally.Winner, tally.Margin),
		"observation: "+tierLabel,
		"artifact: "+a.Path)
	return a, nil
}

// checkInputs loads the commitment and checks the ids and the rationale
// (§6.2 steps 1-4).
func checkInputs(o *AssembleOptions) (matchproto.Object, string, error) {
	if o.Rationale != "" && matchproto.PyStrip(o.Rationale) == "" {
		return nil, "", refuse("--rationale is blank; say what changed since the earlier match, or drop the flag")
	}
	commitment, err := LoadCommitment(o.Commitment, "commitment")
	if err != nil {
		return nil, "", err
	}
	committedAt, _ := matchproto.ParseTime(mustGet(commitment, "committed_at"))
	if committedAt.After(o.Now.now().Add(time.Minute)) {
		return nil, "", refuse("commitment committed_at %s lies in the future; criteria are committed before the match, not after", mustGet(commitment, "committed_at"))
	}
	for _, id := range []struct{ label, v string }{{"campaign_id", o.CampaignID}, {"idea_a", o.IdeaA}, {"idea_b", o.IdeaB}} {
		if !matchproto.ShortIDRE.MatchString(id.v) {
			return nil, "", refuse("%s is not an engine short id (%s): %q", id.label, matchproto.ShortIDRE.String(), id.v)
		}
	}
	if o.IdeaA == o.IdeaB {
		return nil, "", refuse("idea_a and idea_b are the same node (%s)", o.IdeaA)
	}
	matchID := o.MatchID
	if matchID == "" {
		if matchID, err = MintShortID(); err != nil {
			return nil, "", err
		}
	} else if !matchproto.ShortIDRE.MatchString(matchID) {
		return nil, "", refuse("match_id is not an engine short id (%s): %q", matchproto.ShortIDRE.String(), matchID)
	}
	return commitment, matchID, nil
}

// checkOverrideTaint closes part of W8: the report's
// independent_runners=true is not taken at face value when a counted vote
// says it came from a --runner override.
func checkOverrideTaint(report matchproto.Object, votes []vote) error {
	if mustGet(report, "independent_runners") != true {
		return nil
	}
	for _, v := range votes {
		if c, ok := mustGet(v.rec, "collection").(matchproto.Object); ok && mustGet(c, "source") == "override" {
			return refuse("the panel report claims independent_runners=true, but the %s vote came from a --runner override; an override seat is never an independent runner", v.family)
		}
	}
	return nil
}

// buildArtifact assembles pairwise_match_v1 in the reference's key order
// (§6.2 step 10) and adds one "vote:" line per vote to a.Lines.
func buildArtifact(a *Assembled, o *AssembleOptions, matchID string, commitment, report matchproto.Object, votes []vote, tally matchproto.TallyResult, binding matchproto.Object) matchproto.Object {
	mode := mustString(report, "independence")
	var panel []any
	for _, v := range votes {
		e := matchproto.Object{{Key: "reviewer_family", Value: v.family}}
		seat := ""
		if mode == "single_family" {
			e = append(e, matchproto.Member{Key: "seat", Value: int(v.seat)})
			seat = fmt.Sprintf(" seat %d", v.seat)
		}
		e = append(e, matchproto.Member{Key: "model", Value: mustGet(v.rec, "model")})
		c := matchproto.CleanVote(v.rec)
		panel = append(panel, append(e, c...))
		args, _ := c.Get("anchored_arguments")
		a.Lines = append(a.Lines, fmt.Sprintf("vote: %s%s (%v) -> %v, %s credited, %v unanchored discarded",
			v.family, seat, mustGet(v.rec, "model"), mustGet(v.rec, "vote"), plural.N(len(args.([]any)), "anchored argument"), mustGet(v.rec, "unanchored_arguments_discarded")))
	}
	art := matchproto.Object{
		{Key: "match_id", Value: matchID}, {Key: "campaign_id", Value: o.CampaignID},
		{Key: "idea_a_node_id", Value: o.IdeaA}, {Key: "idea_b_node_id", Value: o.IdeaB},
		{Key: "criteria_commitment", Value: commitment},
		{Key: "panel", Value: panel},
		{Key: "panel_independence", Value: matchproto.Object{{Key: "mode", Value: mode}, {Key: "families_present", Value: mustGet(report, "families_present")}, {Key: "families_absent", Value: mustGet(report, "absent")}}},
		{Key: "independent_runners", Value: mustGet(report, "independent_runners")},
		{Key: "outcome", Value: matchproto.Object{{Key: "winner", Value: tally.Winner}, {Key: "vote_margin", Value: tally.Margin}, {Key: "decided_at", Value: matchproto.FormatTime(o.Now.now())}}},
		{Key: "observation_write", Value: matchproto.Object{{Key: "written", Value: false}}},
		{Key: "statement_binding", Value: binding},
	}
	if o.Rationale != "" {
		art = append(art, matchproto.Member{Key: "rationale", Value: o.Rationale})
	}
	return art
}

// writeArtifact validates exactly the bytes it will write, then creates
// <campaign>/artifacts/matches/match-<id>.json exclusively.
func writeArtifact(campaignDir, matchID string, art matchproto.Object) (string, error) {
	data := matchproto.Marshal(art)
	d, err := matchproto.Decode(data)
	if err != nil {
		return "", fmt.Errorf("assembled artifact does not re-parse: %w", err)
	}
	if ps := vm.ValidateMatch(d.Value); len(ps) > 0 {
		return "", refuse("assembled artifact failed validation: %s", vm.Join(ps))
	}
	dir := filepath.Join(campaignDir, "artifacts", "matches")
	path := filepath.Join(dir, "match-"+matchID+".json")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("could not create %q: %w", dir, err)
	}
	if err := atomicfile.WriteNew(path, data, 0o644); err != nil {
		if _, statErr := os.Lstat(path); statErr == nil {
			return "", refuse("artifact already exists: %s", path)
		}
		return "", err
	}
	return path, nil
}

func mustGet(o matchproto.Object, k string) any { v, _ := o.Get(k); return v }

// crossCheckMaterials binds both statements (§6.2 step 5) and, closing W7,
// binds --commitment to the materials' own commitment.json: a copy of the
// same criteria with another committed_at cannot stand in for it.
func crossCheckMaterials(dir string, commitment matchproto.Object, a, b string) (matchproto.Object, error) {
	mc, err := LoadCommitment(filepath.Join(dir, "commitment.json"), "materials commitment.json")
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, refuse("materials cross-check: %v", err)
	}
	if !reflect.DeepEqual(canonicalObject(mc), canonicalObject(commitment)) {
		return nil, refuse("materials cross-check: --commitment (committed_at %v) is not the materials' commitment.json (committed_at %v); the commitment, its date included, is bound to the materials the panel saw",
			mustGet(commitment, "committed_at"), mustGet(mc, "committed_at"))
	}
	hash := mustString(commitment, "commitment_hash")
	binding := matchproto.Object{}
	for _, side := range []struct{ label, node string }{{"a", a}, {"b", b}} {
		p := filepath.Join(dir, "statement_"+side.label+".md")
		text, err := readText(p)
		if readlimit.Refused(err) {
			return nil, err
		}
		if err != nil {
			return nil, refuse("materials cross-check: %s is missing or unreadable: %v", p, err)
		}
		if h := matchproto.StatementHashLine(text); h != hash {
			return nil, refuse("materials cross-check: %s declares hash %q, expected %s", p, h, hash)
		}
		if n := matchproto.StatementNodeLine(text); n != side.node {
			return nil, refuse("materials cross-check: %s argues for node %s, but the match is being assembled for %s", p, n, side.node)
		}
		binding = append(binding, matchproto.Member{Key: side.label, Value: matchproto.Object{{Key: "idea_node_id", Value: side.node}, {Key: "content_sha256", Value: digest.Of([]byte(text))}}})
	}
	return binding, nil
}

func canonicalObject(o matchproto.Object) map[string]any {
	m := map[string]any{}
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		m[k] = fmt.Sprint(v)
	}
	return m
}

// readPanelReport applies §6.2 step 6 and, closing W8 in part, refuses a
// report whose commitment_hash is not the commitment's.
func readPanelReport(votesDir, materialsDir, hash string, t Templates) (matchproto.Object, error) {
	p := filepath.Join(filepath.Dir(filepath.Clean(votesDir)), "panel_run_report.json")
	if _, err := os.Stat(p); err != nil {
		return nil, refuse("panel run report not found next to the votes (%s)", p)
	}
	v, err := readJSON(p, "panel run report", readlimit.JSON)
	if err != nil {
		return nil, err
	}
	if ps := vm.ValidateReport(v); len(ps) > 0 {
		return nil, refuse("%s: %s", p, vm.Join(ps))
	}
	rep := v.(matchproto.Object)
	if h, ok := rep.Get("commitment_hash"); ok && h != hash {
		return nil, refuse("%s records commitment_hash %v but the commitment is %s; the criteria commitment thread is broken", p, h, hash)
	}
	wc, _ := rep.Get("word_cap")
	cap64, _ := asInt(wc)
	m, err := LoadMaterials(materialsDir, int(cap64))
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, refuse("%s: could not rebuild the judge prompt from %s: %v", p, materialsDir, err)
	}
	pr, err := RenderPrompt(m, t)
	if err != nil {
		return nil, refuse("%s: could not rebuild the judge prompt from %s: %v", p, materialsDir, err)
	}
	if rec := mustString(rep, "judge_prompt_sha256"); rec != pr.Digest {
		return nil, refuse("the materials in %s no longer rebuild the judge prompt this panel voted on (recorded %s, current %s); the panel is stale, re-run it", materialsDir, rec, pr.Digest)
	}
	return rep, nil
}

func asInt(v any) (int64, bool) {
	var n int64
	_, err := fmt.Sscan(fmt.Sprint(v), &n)
	return n, err == nil
}

// loadVotes applies §6.2 step 7.
func loadVotes(votesDir, hash string, committedAt time.Time, report matchproto.Object) ([]vote, error) {
	files, err := listVoteFiles(votesDir, report)
	if err != nil {
		return nil, err
	}
	return checkVotes(files, hash, committedAt, report)
}

// listVoteFiles resolves the report's votes_collected inside the panel
// directory and refuses escapes, missing files and unlisted vote files.
func listVoteFiles(votesDir string, report matchproto.Object) ([]string, error) {
	panelDir := filepath.Dir(filepath.Clean(votesDir))
	realVotes, err := filepath.EvalSymlinks(votesDir)
	if err != nil {
		return nil, refuse("votes directory %s: %v", votesDir, err)
	}
	collected := mustGet(report, "votes_collected").(matchproto.Object)
	keys := slices.Sorted(slices.Values(collected.Keys()))
	listed := map[string]bool{}
	var files []string
	for _, k := range keys {
		rel := mustString(collected, k)
		if filepath.IsAbs(rel) || slices.Contains(strings.Split(filepath.ToSlash(rel), "/"), "..") {
			return nil, refuse("votes_collected[%q] = %q escapes the panel directory", k, rel)
		}
		p := filepath.Join(panelDir, rel)
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return nil, refuse("vote file %s is named by the panel run report but missing on disk", p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !strings.HasPrefix(real, realVotes+string(filepath.Separator)) {
			return nil, refuse("vote file %s resolves outside the votes directory %s", p, votesDir)
		}
		listed[real] = true
		files = append(files, p)
	}
	entries, err := readlimit.ReadDir(votesDir)
	if err != nil {
		return nil, refuse("cannot read votes directory %s: %v", votesDir, err)
	}
	var stray []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		real, _ := filepath.EvalSymlinks(filepath.Join(votesDir, e.Name()))
		if !listed[real] {
			stray = append(stray, e.Name())
		}
	}
	if len(stray) > 0 {
		return nil, refuse("vote files not named by the panel run report: %s", strings.Join(stray, ", "))
	}
	return files, nil
}

// checkVotes reads and checks every vote record (§6.2 step 7.3-7.7).
func checkVotes(files []string, hash string, committedAt time.Time, report matchproto.Object) ([]vote, error) {
	mode := mustString(report, "independence")
	presentList := mustGet(report, "families_present").([]any)
	var votes []vote
	fams := map[string]bool{}
	seats := map[int64]bool{}
	for _, f := range files {
		v, err := readJSON(f, "vote record", readlimit.Small)
		if err != nil {
			return nil, err
		}
		rec, ok := v.(matchproto.Object)
		if !ok {
			return nil, refuse("vote record %s is not a JSON object", f)
		}
		fam, _ := rec.Get("reviewer_family")
		fs, _ := fam.(string)
		if !matchproto.LabelRE.MatchString(fs) {
			return nil, refuse("%s: reviewer_family %v is not a family label", f, fam)
		}
		var seatN int64
		if mode == "cross_family" {
			if rec.Has("seat") {
				return nil, refuse("%s carries a seat number; cross-family votes are not numbered", f)
			}
			if fams[fs] {
				return nil, refuse("%s: duplicate vote for family %s", f, fs)
			}
		} else {
			if fs != presentList[0] {
				return nil, refuse("%s: vote from family %s belongs to no seat of the single-family panel of %v", f, fs, presentList[0])
			}
			s, _ := rec.Get("seat")
			n, isInt := asIntStrict(s)
			if !isInt || n < 1 {
				return nil, refuse("%s: seat must be an integer >= 1 on a single-family panel, got %v", f, s)
			}
			if seats[n] {
				return nil, refuse("%s: duplicate seat %d", f, n)
			}
			seats[n], seatN = true, n
		}
		fams[fs] = true
		if err := checkRecord(f, rec, hash, committedAt); err != nil {
			return nil, err
		}
		votes = append(votes, vote{family: fs, seat: seatN, rec: rec})
	}
	minN, _ := asInt(mustGet(report, "min_families"))
	if minN < 3 {
		minN = 3
	}
	if int64(len(votes)) < minN {
		return nil, refuse("only %s present (minimum %d); the panel cannot be assembled", plural.N(len(votes), "vote"), minN)
	}
	var pres []string
	for _, p := range presentList {
		pres = append(pres, p.(string))
	}
	got := slices.Sorted(func(yield func(string) bool) {
		for f := range fams {
			if !yield(f) {
				return
			}
		}
	})
	if !slices.Equal(got, slices.Sorted(slices.Values(pres))) {
		return nil, refuse("vote families %v do not match the report's families_present %v", got, pres)
	}
	sort.Slice(votes, func(i, j int) bool {
		if mode == "single_family" {
			return votes[i].seat < votes[j].seat
		}
		return votes[i].family < votes[j].family
	})
	return votes, nil
}

// checkRecord checks one record's model, payload, commitment hash and
// collection time (not before committed_at: stage order).
func checkRecord(f string, rec matchproto.Object, hash string, committedAt time.Time) error {
	if m, _ := rec.Get("model"); !isNonBlank(m) {
		return refuse("%s: model must be a non-empty string", f)
	}
	if ps := vm.ValidateVotePayload(rec, ""); len(ps) > 0 {
		return refuse("%s: invalid vote payload: %s", f, vm.Join(ps))
	}
	if h, _ := rec.Get("commitment_hash"); h != hash {
		return refuse("%s: commitment_hash %v is not %s; the criteria commitment thread is broken", f, h, hash)
	}
	ct, err := matchproto.ParseTime(mustGet(rec, "collected_at"))
	if err != nil {
		return refuse("%s: collected_at is invalid: %v", f, err)
	}
	if ct.Before(committedAt) {
		return refuse("%s: collected_at %v precedes the commitment's committed_at; stage order violated", f, mustGet(rec, "collected_at"))
	}
	return nil
}

func asIntStrict(v any) (int64, bool) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	s := fmt.Sprint(v)
	if strings.ContainsAny(s, ".eE") {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// rematchGuard refuses a second artifact for the same unordered pair
// without a rationale (§6.2 step 8). Closing W22, an earlier file the guard
// cannot read (corrupt JSON, not an object) is a refusal, not a skip.
func rematchGuard(campaignDir, a, b, rationale string) error {
	files, _ := filepath.Glob(filepath.Join(campaignDir, "artifacts", "matches", "match-*.json"))
	sort.Strings(files)
	for _, f := range files {
		v, err := readJSON(f, "earlier match artifact", readlimit.JSON)
		if readlimit.Refused(err) {
			return err
		}
		if err != nil {
			return refuse("the rematch guard cannot read %s (%v); fix or move it before assembling another match", f, err)
		}
		o, ok := v.(matchproto.Object)
		if !ok {
			return refuse("the rematch guard cannot read %s (not a JSON object); fix or move it before assembling another match", f)
		}
		pa, pb := mustGet(o, "idea_a_node_id"), mustGet(o, "idea_b_node_id")
		if (pa == a && pb == b) || (pa == b && pb == a) {
			if matchproto.PyStrip(rationale) == "" {
				return refuse("this idea pair already has a match artifact (%s); a rematch requires --rationale explaining what changed", f)
			}
		}
	}
	return nil
}

func isNonBlank(v any) bool {
	s, ok := v.(string)
	return ok && matchproto.PyStrip(s) != ""
}
