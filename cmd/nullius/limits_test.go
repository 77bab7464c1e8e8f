package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// The help text states the caps readlimit enforces, the density guard's
// budget and the findings limit.
func TestLimitsHelp(t *testing.T) {
	help := strings.Join(strings.Fields(limitsText), " ")
	var wants []string
	for _, k := range readlimit.Kinds {
		wants = append(wants, fmt.Sprintf("%d MiB from a %s", k.Max()>>20, strings.TrimSuffix(strings.Fields(k.Name())[0], ",")))
	}
	wants = append(wants, fmt.Sprintf("more than %d times its size plus %d MiB", jsonloc.DensityFactor, jsonloc.DensitySlack>>20),
		fmt.Sprintf("at most %d findings of one rule per file", diag.PerRule))
	for _, want := range wants {
		if !strings.Contains(help, want) {
			t.Errorf("limitsText does not say %q", want)
		}
	}
}
