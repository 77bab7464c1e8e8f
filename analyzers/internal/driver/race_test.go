package driver_test

import "github.com/nullius-dev/nullius/internal/testrace"

// raceEnabled names testrace.Enabled for driver_test.go, which is being
// edited this round; the next change to it can use testrace.Enabled and
// drop this file.
const raceEnabled = testrace.Enabled
