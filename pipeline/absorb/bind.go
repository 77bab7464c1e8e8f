package absorb

import (
	"errors"
	"fmt"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/diag"
)

// checkBindings refuses, before anything is edited, packages that are not
// bound to the ideas the artifact names (issue 12): with the flags swapped
// the loser's graph would record that a panel preferred it, at the
// winner's grade. --a-package must be bound to idea_a_node_id,
// --b-package to idea_b_node_id, both to the artifact's campaign_id.
// The bindings are read under the packages' locks, the locks `nullius
// bind` takes, so what is checked is what the edit lands in.
func checkBindings(m *match, opts Options, pkgA, pkgB string) error {
	sides := []*boundPkg{
		{flag: "--a-package", named: opts.APackage, real: pkgA, want: m.a, other: m.b},
		{flag: "--b-package", named: opts.BPackage, real: pkgB, want: m.b, other: m.a},
	}
	for _, s := range sides {
		b, bound, err := binding.Read(s.real)
		if err != nil {
			var be *binding.Error
			line, col := 1, 1
			if errors.As(err, &be) && be.Line > 0 {
				line, col = be.Line, be.Column
			}
			return refuseAt(ruleNotBound, binding.Path(s.named), line, col, "",
				"%s %s: its binding cannot be read: %v; nothing was absorbed", s.flag, s.named, err)
		}
		s.b, s.bound = b, bound
	}
	a, b := sides[0], sides[1]
	if a.bound && b.bound && a.b.NodeID == m.b && b.b.NodeID == m.a {
		msg := fmt.Sprintf("--a-package and --b-package are swapped: %s is bound to node %s (the artifact's idea_b_node_id) and %s to node %s (its idea_a_node_id), so the loser's graph would record the win; run 'nullius match absorb %s --a-package %s --b-package %s'; nothing was absorbed",
			a.named, a.b.NodeID, b.named, b.b.NodeID, opts.Artifact, b.named, a.named)
		return &Refusal{Msg: msg, Diagnostics: []diag.Diagnostic{at(a, msg), at(b, msg)}}
	}
	for _, s := range sides {
		want := binding.Binding{CampaignID: m.campaign, NodeID: s.want}
		switch {
		case !s.bound:
			msg := fmt.Sprintf("%s %s is not bound to an idea (no campaign-id and node-id in [tool.nullius] of %s); bind it to the artifact's %s: %s; nothing was absorbed",
				s.flag, s.named, binding.Path(s.named), ideaKey(s.flag), binding.BindCommand(s.named, want))
			return &Refusal{Msg: msg, Diagnostics: []diag.Diagnostic{at(s, msg)}}
		case s.b.NodeID != s.want:
			hint := fmt.Sprintf("give the package of node %s", s.want)
			if s.b.NodeID == s.other {
				hint = fmt.Sprintf("node %s is the artifact's %s, so pass %s as %s", s.other, ideaKey(otherFlag(s.flag)), s.named, otherFlag(s.flag))
			}
			msg := fmt.Sprintf("%s %s is bound to node %s, but the artifact's %s is %s; %s; nothing was absorbed",
				s.flag, s.named, s.b.NodeID, ideaKey(s.flag), s.want, hint)
			return &Refusal{Msg: msg, Diagnostics: []diag.Diagnostic{at(s, msg)}}
		case m.campaign != "" && s.b.CampaignID != m.campaign:
			msg := fmt.Sprintf("%s %s is bound to campaign %s, but the artifact's campaign_id is %s; a match compares ideas of one campaign (if the binding is wrong: %s --force); nothing was absorbed",
				s.flag, s.named, s.b.CampaignID, m.campaign, binding.BindCommand(s.named, want))
			d := at(s, msg)
			d.Line, d.Column = binding.Locate(s.real, binding.KeyCampaign)
			d.EndLine, d.EndColumn = d.Line, d.Column
			return &Refusal{Msg: msg, Diagnostics: []diag.Diagnostic{d}}
		}
	}
	return nil
}

// boundPkg is one side's package and its binding.
type boundPkg struct {
	flag, named, real, want, other string
	b                              binding.Binding
	bound                          bool
}

// at is the MATCH061 finding at a package's node-id (or where its
// [tool.nullius] table or pyproject.toml starts).
func at(s *boundPkg, msg string) diag.Diagnostic {
	line, col := binding.Locate(s.real, binding.KeyNode)
	return ruleNotBound.New(binding.Path(s.named), line, col, line, col, "%s", msg)
}

func ideaKey(flag string) string {
	if flag == "--a-package" {
		return "idea_a_node_id"
	}
	return "idea_b_node_id"
}

func otherFlag(flag string) string {
	if flag == "--a-package" {
		return "--b-package"
	}
	return "--a-package"
}
