package workdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRel(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{filepath.Join(wd, "a", "b.json"), filepath.Join("a", "b.json")},
		{wd, "."},
		{filepath.Dir(wd), filepath.Dir(wd)},
		{filepath.Join(wd, "..x", "y"), filepath.Join(wd, "..x", "y")}, // looks like a way out: kept as given
		{"relative/p", "relative/p"},                                   // not comparable with the absolute working directory
	} {
		if got := Rel(tc.in); got != tc.want {
			t.Errorf("Rel(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
