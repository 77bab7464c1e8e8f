package extract

import (
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Posterior is the extraction result. The first three fields are the
// reference's output contract (§3.4); ConnectedEvidenceCount is nullius's
// addition (W9): the observations that can move worth.
type Posterior struct {
	Value                  float64
	EvidenceCount          int
	ConnectedEvidenceCount int
	GaiaPackageRef         string
}

// JSON renders p as Python's json.dumps(obj, indent=2, sort_keys=True)
// would, byte for byte and without a final newline: keys sorted, two-space
// indent, ASCII-only strings, value as a Python float repr (1 -> 1.0).
func (p Posterior) JSON() []byte {
	var b strings.Builder
	b.WriteString("{\n")
	b.WriteString(`  "connected_evidence_count": ` + strconv.Itoa(p.ConnectedEvidenceCount) + ",\n")
	b.WriteString(`  "evidence_count": ` + strconv.Itoa(p.EvidenceCount) + ",\n")
	b.WriteString(`  "gaia_package_ref": ` + pyfmt.JSONString(p.GaiaPackageRef, true) + ",\n")
	b.WriteString(`  "value": ` + pyfmt.JSONFloat(p.Value) + "\n")
	b.WriteString("}")
	return []byte(b.String())
}
