package pyscan

import "testing"

// The symbol table read in one pass answers every lookup as
// ts_language_symbol_for_name (symbolID) does: every name of the grammar,
// named and anonymous, and the prefixes of "ERROR" that function treats as
// the error symbol.
func TestLookupSymbolIsSymbolForName(t *testing.T) {
	names, find := grammarSymbols()
	if len(names) < 100 {
		t.Fatalf("grammar has %d symbols", len(names))
	}
	probe := append([]string{"", "E", "ERROR", "ERRORS", "no_such_symbol", "module", ","}, names...)
	for _, name := range probe {
		for _, named := range []bool{true, false} {
			if got, want := lookupSymbol(find, name, named), symbolID(name, named); got != want {
				t.Errorf("lookupSymbol(%q, %v) = %d, ts_language_symbol_for_name says %d", name, named, got, want)
			}
		}
	}
}
