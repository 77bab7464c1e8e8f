package extract

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// DisciplineFile is where extraction records its findings, beside ir.json.
const DisciplineFile = "discipline.json"

// DisciplineRecord is .gaia/discipline.json (format agreed with writeback):
// the error findings of the source scan and the IR checks, suppressed ones
// included, and the pin of the exact ir.json bytes they were computed for.
// A gate that finds exploration_only, findings, or a pin that does not match
// the current ir.json must refuse, whatever the ref string says (W7).
type DisciplineRecord struct {
	Version         int               `json:"version"`
	Tool            string            `json:"tool"`
	IRPin           string            `json:"ir_pin"`
	ExplorationOnly bool              `json:"exploration_only"`
	Findings        []diag.Diagnostic `json:"findings"`
	// Binding is the idea the package was bound to when it was extracted
	// ([tool.nullius] campaign-id and node-id; null when unbound).
	// Writeback refuses a record whose binding is not the package's
	// current one: the posterior was extracted for another idea.
	Binding *binding.Binding `json:"binding"`
}

// WriteDisciplineRecord atomically replaces <pkg>/.gaia/discipline.json.
func WriteDisciplineRecord(pkg, pin string, explorationOnly bool, findings []diag.Diagnostic, b *binding.Binding) error {
	if findings == nil {
		findings = []diag.Diagnostic{}
	}
	rec := DisciplineRecord{Version: 1, Tool: "nullius", IRPin: pin, ExplorationOnly: explorationOnly, Findings: findings, Binding: b}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("could not encode %s: %w", DisciplineFile, err)
	}
	return atomicfile.WriteFile(filepath.Join(pkg, ".gaia", DisciplineFile), append(data, '\n'), 0o644)
}

// ReadDisciplineRecord reads <pkg>/.gaia/discipline.json.
func ReadDisciplineRecord(pkg string) (*DisciplineRecord, error) {
	path := filepath.Join(pkg, ".gaia", DisciplineFile)
	data, err := readlimit.ReadFile(path, readlimit.JSON)
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("could not read %q: %w", path, err)
	}
	var rec DisciplineRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("could not read %q: %w", path, err)
	}
	return &rec, nil
}
