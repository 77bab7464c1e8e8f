package binding

import "github.com/nullius-dev/nullius/internal/readlimit"

// Locate returns the line and column of key (KeyCampaign or KeyNode) in the
// [tool.nullius] table of the package's pyproject.toml, or of the table's
// header when the key is missing, so a refusal about a binding can point at
// it; (1, 1) when neither is there or the file cannot be read.
func Locate(pkgDir, key string) (line, col int) {
	data, err := readlimit.ReadFile(Path(pkgDir), readlimit.Config)
	if err == nil {
		line, col = locate(data, append(append([]string{}, table...), key))
	}
	if line == 0 {
		return 1, 1
	}
	return line, col
}
