package pyformat

import (
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// TestFormatMatchesPython replays the table CPython's str.format produced
// with prompt= and system= (scripts/runner_template_golden.py): every
// expansion, byte for byte, and every exception's class and message.
func TestFormatMatchesPython(t *testing.T) {
	b, err := os.ReadFile("testdata/format.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Prompt, System string
		Cases          []struct {
			In        string  `json:"in"`
			Out       *string `json:"out"`
			ErrorType string  `json:"error_type"`
			Error     string  `json:"error"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 600 || golden.Prompt == "" {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	kw := map[string]string{"prompt": golden.Prompt, "system": golden.System}
	for _, c := range golden.Cases {
		out, err := Format(c.In, kw)
		var pe *Error
		switch {
		case c.Out != nil && (err != nil || out != *c.Out):
			t.Errorf("Format(%q) = %q, %v; Python: %q", c.In, out, err, *c.Out)
		case c.Out == nil && (!errors.As(err, &pe) || pe.Type != c.ErrorType || pe.Msg != c.Error):
			t.Errorf("Format(%q) = %q, %v; Python: %s %q", c.In, out, err, c.ErrorType, c.Error)
		}
	}
}

// Attribute access that Python answers with a bound method's repr (a
// memory address) is refused, not imitated.
func TestMethodAttributeRefused(t *testing.T) {
	_, err := Format("{prompt.upper}", map[string]string{"prompt": "p"})
	var pe *Error
	if !errors.As(err, &pe) || pe.Type != "AttributeError" {
		t.Fatalf("err = %v", err)
	}
}

func TestHugeWidthRefused(t *testing.T) {
	if _, err := Format("{prompt:999999999}", map[string]string{"prompt": "p"}); err == nil {
		t.Fatal("a billion-character expansion was allowed")
	}
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{"{prompt}", "{{", "{prompt:{system}}", "{0[", "{prompt!r:^30}"} {
		f.Add(s)
	}
	kw := map[string]string{"prompt": "/p", "system": "/s"}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Format(s, kw)
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("Format(%q): %v is not a Python exception", s, err)
		}
		if len(out) > 4*maxLen+len(s) {
			t.Fatalf("Format(%q) is %d bytes", s, len(out))
		}
	})
}
