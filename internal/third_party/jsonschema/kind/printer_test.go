package kind

import (
	"errors"
	"math"
	"math/big"
	"math/rand"
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// nullius patch: Printer must print what upstream's English x/text printer
// printed (nullius's schema messages quote these strings). The test links
// x/text/message; the nullius binary does not.

func TestPrinterMatchesXText(t *testing.T) {
	x := message.NewPrinter(language.English)
	check := func(format string, args ...any) {
		t.Helper()
		if got, want := English.Sprintf(format, args...), x.Sprintf(format, args...); got != want {
			t.Errorf("Sprintf(%q, %v) = %q, x/text %q", format, args, got, want)
		}
	}
	// The messages of kind.go and the format checks, with their argument types.
	check("validation failed")
	check("100%% sure %s", "x")
	check("'oneOf' failed, subschemas %d, %d matched", 0, 1234)
	check("both %s and %s resolve to %q causing reference cycle", "a", "b", "http://x/1000")
	check("got %s, want %s", "number", "string")
	check("%s is not valid %s: %v", "'1000'", "date", "invalid 1000")
	check("minProperties: got %d, want %d", 1000000, 3)
	check("last %d additionalItem(s) not allowed", 12345)
	check("items at %d and %d are equal", 999, 1000)
	check("min %d items required to match contains schema, but matched %d items at %v", 1000, 2, "1000 2000")
	check("invalid character %q", 'x')
	check("invalid character %q", rune(0x2028))
	check("invalid character %q in build identifier", '\u00e9')
	check("unit %q out of order", "M")
	check("element %d must be %d characters long", 8, 4)
	check("invalid ipv6 address: %v", errors.New("ParseAddr(\"1000::x\"): bad"))
	for _, r := range []string{"0", "-0", "1/3", "1000", "-1234.5", "1e6", "123456.789", "12345678.9", "1/100000", "-1/1000000", "5e-324", "1e300", "1e21"} {
		q, ok := new(big.Rat).SetString(r)
		if !ok {
			t.Fatal(r)
		}
		f, _ := q.Float64()
		check("minimum: got %v, want %v", f, -f)
	}
	for _, f := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64} {
		check("multipleOf: got %v, want %v", f, f)
	}
	check("%v %v", float32(1.1), float32(123456.7))
	for _, v := range []any{int8(-128), int16(-1000), int32(-100000), int64(math.MinInt64), uint(1000), uint8(255), uint16(65535), uint32(4000000000), uint64(math.MaxUint64), uintptr(1234)} {
		check("%d|%v", v, v)
	}
	rng := rand.New(rand.NewSource(15))
	for i := 0; i < 3000; i++ {
		big, small := rng.Int63()>>rng.Intn(63), rng.Int63()>>rng.Intn(63)
		check("%d %v", big-small, rng.Intn(1<<uint(rng.Intn(31))))
		f := math.Float64frombits(rng.Uint64())
		check("got %v, want %v", f, float64(rng.Int63()>>rng.Intn(63))/float64(int64(1)<<rng.Intn(40)))
	}
}
