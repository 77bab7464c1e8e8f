//go:build race

package analyzers

// raceEnabled: the race detector's runtime allocates differently (sync.Pool
// drops a quarter of what is put back), so allocation bounds are checked
// only in uninstrumented builds (make test).
const raceEnabled = true
