// Package fakes holds the stand-ins for the external programs nullius drives
// (the gaia CLI, the idea-store RPC, judge CLIs), written in Go so tests run
// them as real executables. The CLI's testscript harness registers each as a
// program of its own name; tests of other packages may build them the same
// way through testscript or call their Main functions.
package fakes

// Programs maps a program name to its main function, for testscript.Main.
func Programs() map[string]func() {
	return map[string]func(){
		"fake-gaia":       GaiaMain,
		"fake-idea-store": IdeaStoreMain,
		"fake-judge":      JudgeMain,
		"fake-cli":        CLIMain,
		"fake-python":     PythonMain,
	}
}
