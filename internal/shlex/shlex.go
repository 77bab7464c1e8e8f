// Package shlex splits a command line into words exactly as Python's
// shlex.split does in its default POSIX mode (comments off), the splitter
// the Python tools use for `--runner` templates: whitespace is space, tab,
// CR and LF; single quotes are literal; inside double quotes a backslash
// escapes only `"` and `\` (elsewhere it is kept); outside quotes a
// backslash takes the next character literally, a newline included; `”`
// is an empty word. Nothing is expanded and no shell ever runs. The golden
// table in testdata is generated from CPython (scripts/shlex_golden.py).
package shlex

import (
	"errors"
	"strings"
)

// The errors Python raises, with its words (capitalized as Python has them:
// they end up in seat failure reasons the reference writes the same way).
var (
	//lint:ignore ST1005 Python's message, byte for byte
	ErrNoClosingQuotation = errors.New("No closing quotation")
	//lint:ignore ST1005 Python's message, byte for byte
	ErrNoEscapedCharacter = errors.New("No escaped character")
)

const whitespace = " \t\r\n"

// Split returns the words of s, or Python's ValueError as an error.
func Split(s string) ([]string, error) {
	var (
		words []string
		// A word is flushed only from state 'a', which a character, an
		// escape or a closing quote led to: so '' is a word, and an
		// unquoted empty word cannot occur.
		token strings.Builder
		// state is ' ' between words, 'a' in a word, '\'' or '"' in a
		// quote, '\\' after an escape; escaped is the state to return to.
		state   byte = ' '
		escaped byte = ' '
	)
	flush := func() {
		words = append(words, token.String())
		token.Reset()
	}
	// Bytes are enough: every special character is ASCII, and the bytes of
	// a multi-byte character are copied in order whatever the state.
	for i := 0; i <= len(s); i++ {
		eof := i == len(s)
		var c byte
		if !eof {
			c = s[i]
		}
		switch state {
		case ' ':
			switch {
			case eof:
			case strings.IndexByte(whitespace, c) >= 0:
			case c == '\\':
				escaped, state = 'a', '\\'
			case c == '\'' || c == '"':
				state = c
			default:
				token.WriteByte(c)
				state = 'a'
			}
		case '\'', '"':
			switch {
			case eof:
				return nil, ErrNoClosingQuotation
			case c == state:
				state = 'a'
			case c == '\\' && state == '"':
				escaped, state = state, '\\'
			default:
				token.WriteByte(c)
			}
		case '\\':
			if eof {
				return nil, ErrNoEscapedCharacter
			}
			// Inside double quotes the backslash stays unless it escapes
			// the quote or itself.
			if escaped == '"' && c != '"' && c != '\\' {
				token.WriteByte('\\')
			}
			token.WriteByte(c)
			state = escaped
		case 'a':
			switch {
			case eof:
				flush()
			case strings.IndexByte(whitespace, c) >= 0:
				flush()
				state = ' '
			case c == '\'' || c == '"':
				state = c
			case c == '\\':
				escaped, state = 'a', '\\'
			default:
				token.WriteByte(c)
			}
		}
	}
	return words, nil
}
