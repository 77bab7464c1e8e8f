package match

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

// Our own golden values for the §10 materials (§9: the reference's digest
// holds only for its template bytes). The digest was cross-checked outside
// Go: Python's hashlib over judge_prompt.md and judge_system.md as written by
// `nullius match panel --render-prompt-only` gives the same value. A change here is a template change:
// it makes every earlier panel stale, so it must be deliberate.
const (
	goldenBodySHA = "sha256:fcfecd32e3a91f00e118bdeb10cb24281962aa6c0654f1d5bc5b99e5b5590d56"
	goldenDigest  = "sha256:e4643e3760498883fac0e46de160cc8c3fc9f5e476d8ea8910bcafb0a8b12f3c"
)

func TestGoldenJudgePrompt(t *testing.T) {
	m, err := LoadMaterials(filepath.Join("..", "..", "fixtures", "match", "golden"), 600)
	must(t, err)
	p, err := RenderPrompt(m, DefaultTemplates())
	must(t, err)
	if got := digest.Of([]byte(p.Body)); got != goldenBodySHA {
		t.Errorf("judge prompt body = %s, want %s", got, goldenBodySHA)
	}
	if p.Digest != goldenDigest {
		t.Errorf("judge_prompt_sha256 = %s, want %s", p.Digest, goldenDigest)
	}
	if want := p.Body + strings.Replace(matchproto.BindingTemplate, "%s", p.Digest, 1); p.File != want {
		t.Error("prompt file is not body plus the filled binding block")
	}
}
