package lsp

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/nullius-dev/nullius/internal/third_party/lspprotocol"
)

// encoding is the unit LSP positions count along a line, negotiated at
// initialize: UTF-16 code units unless the client offers UTF-8 (LSP 3.17
// positionEncoding).
type encoding int

const (
	utf16Units encoding = iota
	utf8Bytes
	utf32Runes
)

func (e encoding) kind() protocol.PositionEncodingKind {
	switch e {
	case utf8Bytes:
		return protocol.PositionEncodingKindUTF8
	case utf32Runes:
		return protocol.PositionEncodingKindUTF32
	}
	return protocol.PositionEncodingKindUTF16
}

// negotiate picks the encoding from the client's offer: UTF-8 when
// offered (no conversion at all), else UTF-16, which every client must
// support.
func negotiate(offered []protocol.PositionEncodingKind) encoding {
	for _, k := range offered {
		if k == protocol.PositionEncodingKindUTF8 {
			return utf8Bytes
		}
	}
	return utf16Units
}

// text is a document's contents with the offsets of its line starts.
// Lines end at "\n", "\r\n" or a lone "\r", as LSP counts them.
type text struct {
	src    []byte
	starts []int // byte offset of each line start; starts[0] == 0
}

func newText(src []byte) *text {
	t := &text{src: src, starts: []int{0}}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			t.starts = append(t.starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// lineEnd returns the offset of the end of line l's content (before its
// line break).
func (t *text) lineEnd(l int) int {
	if l+1 >= len(t.starts) {
		return len(t.src)
	}
	end := t.starts[l+1]
	if end > 0 && t.src[end-1] == '\n' {
		end--
	}
	if end > t.starts[l] && t.src[end-1] == '\r' {
		end--
	}
	return end
}

// offset converts an LSP position into a byte offset. A line past the end
// means the end of the text; a character past the end of its line means
// the end of the line (LSP: "defaults back to the line length"). A
// position inside a UTF-16 surrogate pair or a UTF-8 sequence moves to the
// start of its character.
func (t *text) offset(p protocol.Position, enc encoding) int {
	l := int(p.Line)
	if l >= len(t.starts) {
		return len(t.src)
	}
	off, end := t.starts[l], t.lineEnd(l)
	want := int(p.Character)
	if enc == utf8Bytes {
		off = min(off+want, end)
		for off > t.starts[l] && off < end && !utf8.RuneStart(t.src[off]) {
			off--
		}
		return off
	}
	for n := 0; off < end; {
		r, size := utf8.DecodeRune(t.src[off:end])
		w := 1
		if enc == utf16Units && r >= 0x10000 && r != utf8.RuneError {
			w = 2
		}
		if n+w > want {
			break
		}
		n += w
		off += size
	}
	return off
}

// position converts a byte offset into an LSP position.
func (t *text) position(off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	l := t.line(off)
	start := t.starts[l]
	off = min(off, max(start, t.lineEnd(l)))
	var ch int
	switch enc {
	case utf8Bytes:
		ch = off - start
	case utf32Runes:
		ch = utf8.RuneCount(t.src[start:off])
	default:
		for i := start; i < off; {
			r, size := utf8.DecodeRune(t.src[i:off])
			if r >= 0x10000 && r != utf8.RuneError {
				ch += utf16.RuneLen(r)
			} else {
				ch++
			}
			i += size
		}
	}
	return protocol.Position{Line: uint32(l), Character: uint32(ch)}
}

// line returns the index of the line holding off.
func (t *text) line(off int) int {
	lo, hi := 0, len(t.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// at converts a 1-based line and 1-based UTF-8 byte column (the
// diagnostics model) into a byte offset, clamped to the line.
func (t *text) at(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(t.starts) {
		return len(t.src)
	}
	start := t.starts[line-1]
	return min(start+max(col, 1)-1, max(start, t.lineEnd(line-1)))
}

// apply applies one incremental change and returns the new text.
func (t *text) apply(r protocol.Range, repl string, enc encoding) (*text, error) {
	start, end := t.offset(r.Start, enc), t.offset(r.End, enc)
	if end < start {
		return nil, fmt.Errorf("change range ends before it starts (%d:%d-%d:%d)", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	src := make([]byte, 0, len(t.src)-(end-start)+len(repl))
	src = append(src, t.src[:start]...)
	src = append(src, repl...)
	src = append(src, t.src[end:]...)
	return newText(src), nil
}
