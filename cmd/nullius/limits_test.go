package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/readlimit"
)

// The help text states the caps readlimit enforces.
func TestLimitsHelp(t *testing.T) {
	help := strings.Join(strings.Fields(limitsText), " ")
	for _, k := range readlimit.Kinds {
		want := fmt.Sprintf("%d MiB from a %s", k.Max()>>20, strings.TrimSuffix(strings.Fields(k.Name())[0], ","))
		if !strings.Contains(help, want) {
			t.Errorf("limitsText does not say %q", want)
		}
	}
}
