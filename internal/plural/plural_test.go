package plural

import "testing"

func TestN(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{N(0, "file"), "0 files"},
		{N(1, "file"), "1 file"},
		{N(2, "file"), "2 files"},
		{N(1, "usable family", "usable families"), "1 usable family"},
		{N(3, "usable family", "usable families"), "3 usable families"},
		{N(-1, "degree"), "-1 degrees"},
		{Noun(1, "match artifact"), "match artifact"},
		{Noun(0, "match artifact"), "match artifacts"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
