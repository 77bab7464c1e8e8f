package prior

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/projroot"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Pinned project references (`project://<path>#sha256:<hex>`) bind a number
// or receipt to the exact bytes a reader can re-open. One parser serves the
// literature artifacts (P-1) and the package refs (P-2); the package flavour
// adds the reference's "no leading slash" rule.

var (
	pprRE        = lazyre.New(`^project://([^\s#]+)#sha256:([0-9a-f]{64})$`)
	pprCharsetRE = lazyre.New(`^[A-Za-z0-9._~%/-]+$`)
)

// Ref is a parsed pinned project reference.
type Ref struct {
	Path string // decoded, project-relative, slash-separated
	Hex  string // 64 lowercase hex digits
}

// ParseRef checks the grammar, charset and segment rules of a pinned project
// reference and returns its decoded path and pin.
func ParseRef(ref string) (Ref, error) {
	m := pprRE.FindStringSubmatch(ref)
	if m == nil {
		return Ref{}, errors.New("must be project://<project-relative path>#sha256:<64 lowercase hex>")
	}
	raw := m[1]
	if !pprCharsetRE.MatchString(raw) {
		return Ref{}, errors.New("path must use canonical percent-encoding (only A-Z a-z 0-9 . _ ~ % / -)")
	}
	dec, err := url.PathUnescape(raw)
	if err != nil || !utf8.ValidString(dec) || strings.Contains(dec, `\`) {
		return Ref{}, errors.New("path escapes or is not canonical")
	}
	for _, seg := range strings.Split(dec, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return Ref{}, errors.New("path escapes or is not canonical (empty, '.' or '..' segments)")
		}
	}
	return Ref{Path: dec, Hex: m[2]}, nil
}

// PinBytes returns "sha256:<hex>" of b, the pin format of every reference.
func PinBytes(b []byte) string {
	return digest.Of(b)
}

// RefFor builds the pinned reference of a file under root from its bytes,
// percent-encoding every byte outside the canonical charset.
func RefFor(root, file string, b []byte) (string, error) {
	rel, err := filepath.Rel(root, file)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is not inside the project root %s", file, root)
	}
	return "project://" + EncodePath(filepath.ToSlash(rel)) + "#" + PinBytes(b), nil
}

// EncodePath percent-encodes a project-relative POSIX path keeping only the
// canonical charset (and '/') literal, as the reference's extractor does.
func EncodePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' || c == '.' || c == '_' || c == '~' || c == '-' ||
			('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// ResolvePinned resolves a literature artifact reference (P-1) under root:
// grammar, containment after symlink resolution, regular file, exact-byte
// pin. It returns the bytes and the resolved file path.
func ResolvePinned(root, ref string) ([]byte, string, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return nil, "", err
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, "", fmt.Errorf("project root %s does not resolve: %v", pyfmt.Str(root), err)
	}
	target := filepath.Join(rootReal, filepath.FromSlash(r.Path))
	real, err := filepath.EvalSymlinks(target)
	if err != nil || !contain.Within(real, rootReal) {
		return nil, "", fmt.Errorf("%s does not resolve inside project root (missing file or symlink escape)", pyfmt.Str(r.Path))
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s target is not a file", pyfmt.Str(r.Path))
	}
	b, err := readlimit.ReadFile(real, readlimit.JSON)
	if err != nil {
		return nil, "", fmt.Errorf("%s could not be read: %v", pyfmt.Str(r.Path), err)
	}
	if got := PinBytes(b); got != "sha256:"+r.Hex {
		return nil, "", fmt.Errorf("%s pin does not match exact artifact bytes: expected sha256:%s, got %s; re-pin the reference to the file you validated", pyfmt.Str(r.Path), r.Hex, got)
	}
	return b, real, nil
}

// FindProjectRoot returns the nearest ancestor of start (inclusive, made
// absolute and symlink-free first) holding a .nullius/ directory, or ""
// when there is none.
func FindProjectRoot(start string) string {
	dir, err := filepath.Abs(start)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	root, _ := projroot.Find(dir)
	return root
}
