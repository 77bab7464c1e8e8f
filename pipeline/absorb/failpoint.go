package absorb

// crashHook, when set, is called at every crash point of the transaction
// and of recovery with the point's name (see CrashPoints) and, at a point
// just before a write, the path about to be written. Only tests set it
// (SetCrashHook), to kill the process there and prove that recovery from
// each point leaves every match fully absorbed or not at all.
var crashHook func(point, path string)

// SetCrashHook installs f as the crash hook. It is for tests only: the
// production binary never calls it (cmd/nullius installs one from a
// _test.go file, so only the test build honours NULLIUS_TEST_CRASH_AT).
func SetCrashHook(f func(point, path string)) { crashHook = f }

func failpoint(point string) { failpointAt(point, "") }

func failpointAt(point, path string) {
	if crashHook != nil {
		crashHook(point, path)
	}
}

// CrashPoints are the named points of an absorb, in the order it passes
// them, and of recovery. "write-*" and "recover-write-*" points come just
// before an atomic write of a file and pass its path (a hook may leave a
// temporary file beside it, as a writer killed mid-write would).
var CrashPoints = []string{
	"locked",          // locks held, stale journals recovered, nothing read yet
	"write-journal",   // about to write the journal
	"journaled",       // journal "prepared" on disk, nothing edited
	"write-module-a",  // about to write module A
	"module-a",        // module A edited
	"write-module-b",  // about to write module B
	"module-b",        // both modules edited
	"linted",          // both packages linted clean after the edit
	"write-commit",    // about to rewrite the journal as committed
	"committed",       // journal "committed"
	"write-artifact",  // about to write the artifact
	"artifact",        // artifact marked
	"journal-removed", // journal deleted, locks still held
	// recovery
	"recover-write-0", // about to settle module A
	"recover-write-1", // about to settle module B
	"recover-write-2", // about to settle the artifact
	"recover-settled", // every file settled, journal not yet deleted
}
