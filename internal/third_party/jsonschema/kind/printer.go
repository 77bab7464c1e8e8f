package kind

import (
	"fmt"
	"strconv"
	"strings"
)

// nullius patch: Printer stands for golang.org/x/text/message's English
// printer (message.NewPrinter(language.English)), which upstream formats every
// message with. Linking x/text/message pulls in x/text/language and its
// tables, whose package inits every nullius process paid at start (issue 15),
// although nullius only ever asked for English. Printer prints what that
// printer printed for the arguments these messages pass: integers under %d
// and %v with thousands separators (1,000), floats under %v as x/text writes
// them (1,234.5, 1×10⁰⁶, ∞), everything else as fmt does. printer_test.go
// compares it with x/text/message.
type Printer struct{}

// English is the printer every message is formatted with.
var English = &Printer{}

// Sprintf formats like fmt.Sprintf, numbers in English as above. %T is
// not for it: fmt would name the wrapper's type (x/text names the
// argument's, as fmt.Sprintf does).
func (*Printer) Sprintf(format string, args ...any) string {
	wrapped := make([]any, len(args))
	for i, a := range args {
		wrapped[i] = english(a)
	}
	return fmt.Sprintf(format, wrapped...)
}

func english(a any) any {
	switch v := a.(type) {
	case int:
		return englishInt{a, int64(v) < 0, absInt(int64(v))}
	case int8:
		return englishInt{a, v < 0, absInt(int64(v))}
	case int16:
		return englishInt{a, v < 0, absInt(int64(v))}
	case int32:
		return englishInt{a, v < 0, absInt(int64(v))}
	case int64:
		return englishInt{a, v < 0, absInt(v)}
	case uint:
		return englishInt{a, false, uint64(v)}
	case uint8:
		return englishInt{a, false, uint64(v)}
	case uint16:
		return englishInt{a, false, uint64(v)}
	case uint32:
		return englishInt{a, false, uint64(v)}
	case uint64:
		return englishInt{a, false, v}
	case uintptr:
		return englishInt{a, false, uint64(v)}
	case float32:
		return englishFloat{a, float64(v), 32}
	case float64:
		return englishFloat{a, v, 64}
	}
	return a
}

func absInt(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1 // also for math.MinInt64
	}
	return uint64(v)
}

// plain reports whether fmt.State has none of the flags, width or
// precision x/text would treat differently from the plain verb.
func plain(f fmt.State) bool {
	_, w := f.Width()
	_, p := f.Precision()
	return !w && !p && !f.Flag('#') && !f.Flag('+') && !f.Flag(' ') && !f.Flag('-') && !f.Flag('0')
}

type englishInt struct {
	orig any
	neg  bool
	abs  uint64
}

func (n englishInt) Format(f fmt.State, verb rune) {
	if (verb == 'd' || verb == 'v') && plain(f) {
		s := group(strconv.FormatUint(n.abs, 10))
		if n.neg {
			s = "-" + s
		}
		_, _ = f.Write([]byte(s))
		return
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), n.orig)
}

type englishFloat struct {
	orig any
	v    float64
	size int
}

func (n englishFloat) Format(f fmt.State, verb rune) {
	if (verb != 'v' && verb != 'g') || !plain(f) {
		_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), n.orig)
		return
	}
	// x/text copies strconv's shortest 'g' (scientific when the exponent is
	// < -4 or >= 6), then writes digits in its own notation.
	s := strconv.FormatFloat(n.v, 'g', -1, n.size)
	switch s {
	case "-0":
		s = "0" // x/text drops the sign of a negative zero
	case "+Inf":
		s = "∞"
	case "-Inf":
		s = "-∞"
	case "NaN":
	default:
		sign := ""
		if s[0] == '-' {
			sign, s = "-", s[1:]
		}
		mant, exp, sci := strings.Cut(s, "e")
		intPart, frac, hasFrac := strings.Cut(mant, ".")
		s = sign + group(intPart)
		if hasFrac {
			s += "." + frac
		}
		if sci {
			s += "×10" + superscript(exp)
		}
	}
	_, _ = f.Write([]byte(s))
}

// group puts a comma between every three digits from the right.
func group(d string) string {
	if len(d) <= 3 {
		return d
	}
	var b strings.Builder
	first := len(d) % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(d[:first])
	for i := first; i < len(d); i += 3 {
		b.WriteByte(',')
		b.WriteString(d[i : i+3])
	}
	return b.String()
}

// superscript writes strconv's exponent ("+06", "-324") in superscript
// digits, keeping a minus sign and dropping a plus.
func superscript(exp string) string {
	digits := [...]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}
	var b strings.Builder
	for _, c := range exp {
		switch {
		case c == '-':
			b.WriteString("⁻")
		case c >= '0' && c <= '9':
			b.WriteString(digits[c-'0'])
		}
	}
	return b.String()
}
