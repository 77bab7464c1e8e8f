package pyscan

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// fstringBraces undoes an f-string's doubled braces.
var fstringBraces = lazy.NewReplacer("{{", "{", "}}", "}")

// strToken is one decoded string token (prefix, quotes, body).
type strToken struct {
	bytes bool   // b prefix
	raw   bool   // r prefix
	fstr  bool   // f prefix
	value string // decoded value (for an f-string: its literal text with {{ }} undone)
}

// isLowerASCII reports whether s has no upper-case ASCII letter (string
// prefixes are almost always empty or lower case: no ToLower then).
func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return false
		}
	}
	return true
}

// splitString splits a string token into its lower-cased prefix, quote and
// body. ok is false when the token is not a complete string literal (the
// parser already reported the damage).
func splitString(tok string) (prefix, quote, body string, ok bool) {
	i := 0
	for i < len(tok) && tok[i] != '\'' && tok[i] != '"' {
		i++
	}
	if i == len(tok) {
		return "", "", "", false
	}
	prefix = tok[:i]
	if !isLowerASCII(prefix) {
		prefix = strings.ToLower(prefix)
	}
	q := tok[i : i+1]
	if len(tok)-i >= 6 && tok[i+1] == tok[i] && tok[i+2] == tok[i] {
		q = tok[i : i+3]
	}
	if len(tok)-i < 2*len(q) || !strings.HasSuffix(tok, q) {
		return "", "", "", false
	}
	return prefix, q, tok[i+len(q) : len(tok)-len(q)], true
}

// decodeStringToken decodes one string token exactly as CPython does. A
// non-empty errMsg is the syntax error CPython would raise.
func decodeStringToken(tok string, cr bool) (t strToken, errMsg string) {
	t, body, errMsg := stringBody(tok)
	if errMsg != "" {
		return t, errMsg
	}
	if t.raw {
		t.value = normalizeNewlines(body, cr)
	} else {
		v, msg := unescape(body, t.bytes, cr)
		if msg != "" {
			return t, msg
		}
		t.value = v
	}
	if t.fstr {
		t.value = fstringBraces.Replace(t.value)
	}
	return t, ""
}

// appendStringToken is decodeStringToken appending the value to dst (t.value
// is not set): the parts of an implicit concatenation are decoded into the
// joined value, not each into a string of its own. On an error dst comes
// back as it was.
func appendStringToken(dst []byte, tok string, cr bool) (t strToken, out []byte, errMsg string) {
	t, body, errMsg := stringBody(tok)
	switch {
	case errMsg != "":
		return t, dst, errMsg
	case t.fstr: // rare in a concatenation: the braces are undone on the decoded value
		t, errMsg = decodeStringToken(tok, cr)
		return t, append(dst, t.value...), errMsg
	case t.raw:
		return t, append(dst, normalizeNewlines(body, cr)...), ""
	}
	out, errMsg = appendUnescaped(dst, body, t.bytes, cr)
	if errMsg != "" {
		return t, dst, errMsg
	}
	return t, out, ""
}

// stringBody splits a string token into its prefix flags and body and
// reports the errors found before decoding (an unterminated literal, an
// invalid prefix, non-ASCII bytes).
func stringBody(tok string) (t strToken, body, errMsg string) {
	prefix, _, body, ok := splitString(tok)
	if !ok {
		return t, "", "unterminated string literal"
	}
	if t, errMsg = parsePrefix(prefix); errMsg != "" {
		return t, "", errMsg
	}
	if t.bytes {
		for i := 0; i < len(body); i++ {
			if body[i] >= 0x80 {
				return t, "", "bytes can only contain ASCII literal characters"
			}
		}
	}
	return t, body, ""
}

// parsePrefix interprets a lower-cased string prefix.
func parsePrefix(prefix string) (t strToken, errMsg string) {
	switch prefix {
	case "", "u":
	case "r":
		t.raw = true
	case "b":
		t.bytes = true
	case "br", "rb":
		t.bytes, t.raw = true, true
	case "f":
		t.fstr = true
	case "fr", "rf":
		t.fstr, t.raw = true, true
	default:
		return t, "invalid string prefix " + pyfmt.Str(prefix)
	}
	return t, ""
}

// normalizeNewlines turns \r\n and lone \r into \n, as CPython's tokenizer
// does before a literal is decoded.
func normalizeNewlines(s string, cr bool) string {
	if !cr || strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// unescape decodes the backslash escapes of a non-raw string or bytes body.
// Unknown escapes are kept verbatim (`\q` stays `\q`), as Python does.
// cr false says the module has no CR at all (the body is not searched for
// one).
func unescape(body string, bytes, cr bool) (string, string) {
	if strings.IndexByte(body, '\\') < 0 && (!cr || strings.IndexByte(body, '\r') < 0) {
		return body, "" // the common case: no allocation
	}
	out, msg := appendUnescaped(make([]byte, 0, len(body)), body, bytes, cr)
	if msg != "" {
		return "", msg
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), "" // out is never written again
}

// appendUnescaped appends body with its escapes decoded (see unescape) to
// out; decoding never lengthens a body.
func appendUnescaped(out []byte, body string, bytes, cr bool) ([]byte, string) {
	bs := strings.IndexByte(body, '\\') // the next backslash at or after i below; -1: none
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' && c != '\r' {
			// The plain bytes up to the next backslash or CR, copied at
			// once (vectorised searches) rather than appended one by one.
			if bs >= 0 && bs < i { // passed by an escape: find the next
				if bs = strings.IndexByte(body[i:], '\\'); bs >= 0 {
					bs += i
				}
			}
			j := len(body)
			if bs >= 0 {
				j = bs
			}
			if cr {
				if k := strings.IndexByte(body[i:j], '\r'); k >= 0 {
					j = i + k
				}
			}
			out = append(out, body[i:j]...)
			i = j
			continue
		}
		if c == '\r' {
			out = append(out, '\n')
			i++
			if i < len(body) && body[i] == '\n' {
				i++
			}
			continue
		}
		if i+1 >= len(body) { // a backslash ending the body
			out = append(out, c)
			i++
			continue
		}
		e := body[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(body) && body[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			out = append(out, e)
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, 11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for k := 0; k < 2 && i < len(body) && body[i] >= '0' && body[i] <= '7'; k++ {
				v = v*8 + int(body[i]-'0')
				i++
			}
			if bytes {
				out = append(out, byte(v)) // CPython truncates \400-\777 in bytes (with a warning)
			} else {
				out = utf8.AppendRune(out, rune(v))
			}
		case 'x':
			v, ok := hexValue(body, i, 2)
			if !ok {
				return out, `truncated \xXX escape`
			}
			i += 2
			if bytes {
				out = append(out, byte(v))
			} else {
				out = utf8.AppendRune(out, rune(v))
			}
		case 'u', 'U', 'N':
			if bytes { // not escapes in bytes: kept verbatim
				out = append(out, '\\', e)
				continue
			}
			var r rune
			switch e {
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				v, ok := hexValue(body, i, n)
				if !ok {
					return out, "truncated \\" + string(e) + strings.Repeat("X", n) + " escape"
				}
				if v > utf8.MaxRune {
					return out, `illegal Unicode character in \U escape`
				}
				i += n
				r = rune(v)
			case 'N':
				end := strings.IndexByte(body[i:], '}')
				if i >= len(body) || body[i] != '{' || end < 2 {
					return out, `malformed \N character escape`
				}
				name := body[i+1 : i+end]
				var ok bool
				if r, ok = lookupUnicodeName(name); !ok {
					return out, "unknown Unicode character name " + strconv.Quote(name) + ` in \N{...} escape`
				}
				i += end + 1
			}
			// Lone surrogates (\ud800) are legal in Python str but not in
			// UTF-8; AppendRune writes U+FFFD for them.
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, '\\', e) // unknown escape, kept verbatim
		}
	}
	return out, ""
}

// hexValue reads exactly n hex digits at s[i:].
func hexValue(s string, i, n int) (uint64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+n], 16, 64)
	if err != nil || strings.ContainsAny(s[i:i+n], "+-_") {
		return 0, false
	}
	return v, true
}

// number is a decoded numeric token.
type number struct {
	val     float64
	isInt   bool
	complex bool
}

// decodeNumber decodes an integer, float or imaginary token as CPython does
// (float() of the token; ints rounded half-even to float64). A non-empty
// errMsg is the syntax error CPython would raise.
func decodeNumber(tok string) (n number, errMsg string) {
	if n, ok := plainDecimal(tok); ok {
		return n, ""
	}
	return decodeAnyNumber(tok)
}

// pow10 are the powers of ten up to 1e15, all exact in a float64.
var pow10 = [16]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// plainDecimal decodes the tokens modules are mostly made of, at most 15
// decimal digits and at most one '.' (`0`, `42`, `0.75`, `1.`, `.5`), in
// one pass; ok is false for anything else (an exponent, an underscore, a
// prefix or suffix, an int with a leading zero, more digits), which
// decodeAnyNumber decodes. The digits and the power of ten are both exact
// in a float64, so one division rounds as ParseFloat does (it takes the
// same exact path for such tokens).
func plainDecimal(tok string) (n number, ok bool) {
	if len(tok) == 0 || len(tok) > 16 {
		return n, false
	}
	var m uint64
	dot := -1
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
		case c == '.' && dot < 0:
			dot = i
		default:
			return n, false
		}
	}
	switch {
	case dot < 0 && len(tok) <= 15 && (tok[0] != '0' || len(tok) == 1):
		return number{val: float64(m), isInt: true}, true
	case dot >= 0 && len(tok) > 1:
		return number{val: float64(m) / pow10[len(tok)-1-dot]}, true
	}
	return n, false
}

// decodeAnyNumber is decodeNumber for every token.
func decodeAnyNumber(tok string) (n number, errMsg string) {
	if tok == "" {
		return n, "invalid number literal"
	}
	switch tok[len(tok)-1] {
	case 'j', 'J':
		n.complex = true
		tok = tok[:len(tok)-1]
	case 'l', 'L':
		return n, "invalid decimal literal " + pyfmt.Str(tok) + " (the Python 2 long suffix L is not Python 3)"
	}
	base := 10
	digits := tok
	if len(tok) > 2 && tok[0] == '0' {
		switch tok[1] {
		case 'x', 'X':
			base, digits = 16, tok[2:]
		case 'o', 'O':
			base, digits = 8, tok[2:]
		case 'b', 'B':
			base, digits = 2, tok[2:]
		}
	}
	if base != 10 && n.complex {
		return n, "invalid " + baseName(base) + " literal " + pyfmt.Str(tok+"j")
	}
	if msg := checkUnderscores(digits, base, base != 10); msg != "" {
		return n, msg + " in " + pyfmt.Str(tok)
	}
	clean := strings.ReplaceAll(digits, "_", "")
	isFloat := base == 10 && strings.ContainsAny(clean, ".eE")
	if isFloat || n.complex {
		v, err := strconv.ParseFloat(clean, 64)
		if err != nil && !isRangeErr(err) {
			return n, "invalid number literal " + pyfmt.Str(tok)
		}
		n.val = v // ±Inf on overflow, like float('1e400')
		n.isInt = false
		return n, ""
	}
	if base == 10 && len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
		return n, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers"
	}
	n.isInt = true
	if u, err := strconv.ParseUint(clean, base, 64); err == nil {
		n.val = float64(u) // round-half-even, as Python's int.__float__
		return n, ""
	}
	bi, ok := new(big.Int).SetString(clean, base)
	if !ok {
		return n, "invalid " + baseName(base) + " literal " + pyfmt.Str(tok)
	}
	f, _ := new(big.Float).SetInt(bi).Float64() // nearest even; +Inf beyond float64
	if math.IsInf(f, 0) {
		f = math.Inf(1)
	}
	n.val = f
	return n, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func baseName(base int) string {
	switch base {
	case 16:
		return "hexadecimal"
	case 8:
		return "octal"
	case 2:
		return "binary"
	}
	return "decimal"
}

// checkUnderscores enforces PEP 515: an underscore sits between two digits,
// or right after a base prefix.
func checkUnderscores(s string, base int, prefixed bool) string {
	isDigit := func(c byte) bool {
		switch {
		case c >= '0' && c <= '9':
			return int(c-'0') < base
		case base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			return true
		}
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			continue
		}
		prevOK := (i > 0 && isDigit(s[i-1])) || (i == 0 && prefixed)
		nextOK := i+1 < len(s) && isDigit(s[i+1])
		if !prevOK || !nextOK {
			return "invalid " + baseName(base) + " literal: misplaced underscore"
		}
	}
	if len(s) == 0 {
		return "invalid " + baseName(base) + " literal"
	}
	return ""
}
