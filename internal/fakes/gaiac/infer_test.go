package gaiac

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// beliefs compiles src and returns the belief of each labelled claim.
func beliefs(t *testing.T, body string) map[string]float64 {
	t.Helper()
	out, err := CompileModule("m/__init__.py", "demo", []byte(header+body))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Infer(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, v := range decode(t, b)["beliefs"].([]any) {
		e := v.(map[string]any)
		l, _ := e["label"].(string)
		if l == "" {
			l = e["knowledge_id"].(string)
		}
		got[l] = e["belief"].(float64)
	}
	return got
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("%s = %.17g, want %.17g", what, got, want)
	}
}

// Each expected value is worked out by hand from the model Infer documents
// (Bayes' rule on the factor graph), independently of the enumeration.
func TestInferClosedForms(t *testing.T) {
	const obs = 0.999 // observe() pins the evidence to 1 - ε
	// The message an observed evidence node sends its hypothesis:
	// m(h) = Σ_e prior(e) P(e|h).
	msg := func(peh float64) float64 { return obs*peh + (1-obs)*(1-peh) }

	t.Run("one observed update", func(t *testing.T) {
		got := beliefs(t, `h = claim("H.")
e = claim("E.")
observe(e)
infer(e, hypothesis=h, p_e_given_h=0.9, p_e_given_not_h=0.09)
`)
		m1, m0 := msg(0.9), msg(0.09)
		near(t, "h", got["h"], m1/(m1+m0))
		// e's own marginal: its prior reweighted by the infer factor.
		pe := (obs * (0.5*0.9 + 0.5*0.09)) / (obs*(0.5*0.9+0.5*0.09) + (1-obs)*(0.5*0.1+0.5*0.91))
		near(t, "e", got["e"], pe)
	})

	t.Run("the road: a chain and a lowering update", func(t *testing.T) {
		got := beliefs(t, `worth = claim("W.")
tension = claim("T.")
ev_t = claim("ET.")
ev_c = claim("EC.")
observe(ev_t)
observe(ev_c)
infer(ev_t, hypothesis=tension, p_e_given_h=0.90, p_e_given_not_h=0.09)
infer(tension, hypothesis=worth, p_e_given_h=0.75, p_e_given_not_h=0.25)
infer(ev_c, hypothesis=worth, p_e_given_h=0.25, p_e_given_not_h=0.75)
`)
		mt1, mt0 := msg(0.90), msg(0.09)
		// tension sends worth Σ_t P(t|w) m(t).
		mw1 := 0.75*mt1 + 0.25*mt0
		mw0 := 0.25*mt1 + 0.75*mt0
		mc1, mc0 := msg(0.25), msg(0.75)
		near(t, "worth", got["worth"], mw1*mc1/(mw1*mc1+mw0*mc0))
		// tension: its evidence times the message from worth's side.
		fromW1 := 0.75*mc1 + 0.25*mc0 // Σ_w P(t=1|w) m_c(w)
		fromW0 := 0.25*mc1 + 0.75*mc0
		near(t, "tension", got["tension"], mt1*fromW1/(mt1*fromW1+mt0*fromW0))
	})

	t.Run("register_prior and the Cromwell clamp", func(t *testing.T) {
		got := beliefs(t, `a = claim("A.")
b = claim("B.", prior=0.3)
c = claim("C.")
register_prior(a, 0.7, justification="j. anchor: x")
register_prior(a, 0.2, justification="later. anchor: x")
e = claim("E.")
observe(e)
infer(e, hypothesis=c, p_e_given_h=1.0, p_e_given_not_h=0.0)
`)
		near(t, "a (last record wins)", got["a"], 0.2)
		near(t, "b (inline prior)", got["b"], 0.3)
		// P(e|c) clamped to 0.999 and 0.001.
		m1, m0 := obs*0.999+(1-obs)*0.001, obs*0.001+(1-obs)*0.999
		near(t, "c", got["c"], m1/(m1+m0))
	})

	t.Run("relations are asserted", func(t *testing.T) {
		got := beliefs(t, `a = claim("A.")
b = claim("B.")
c = claim("C.")
d = claim("D.")
f = claim("F.")
g = claim("G.")
register_prior(a, 0.8, justification="j")
register_prior(c, 0.8, justification="j")
register_prior(d, 0.6, justification="j")
register_prior(f, 0.5, justification="j")
register_prior(g, 0.4, justification="j")
x = exclusive(a, b)
y = equal(c, d)
z = contradict(f, g)
`)
		near(t, "b = not a", got["b"], 0.2)
		near(t, "exclusive helper", got["x"], 1)
		near(t, "c == d", got["c"], 0.8*0.6/(0.8*0.6+0.2*0.4))
		near(t, "d == c", got["d"], got["c"])
		near(t, "f, given not (f and g)", got["f"], 0.5*0.6/(1-0.5*0.4))
		near(t, "g, given not (f and g)", got["g"], 0.4*0.5/(1-0.5*0.4))
		near(t, "contradiction helper", got["z"], 1)
	})

	t.Run("unconnected claims keep their priors", func(t *testing.T) {
		got := beliefs(t, "a = claim(\"A.\")\nn = note(\"N.\")\n")
		near(t, "a", got["a"], 0.5)
		if _, ok := got["n"]; ok {
			t.Error("a note got a belief; notes are not part of inference")
		}
	})
}

// Graphs beyond the enumeration bound, and impossible assertions, are
// refused, never approximated.
func TestInferRefusals(t *testing.T) {
	var b strings.Builder
	b.WriteString("h = claim(\"H.\")\n")
	for i := 0; i <= MaxComponent; i++ {
		fmt.Fprintf(&b, "e%d = claim(\"E%d.\")\ninfer(e%d, hypothesis=h, p_e_given_h=0.75, p_e_given_not_h=0.25)\n", i, i, i)
	}
	out, err := CompileModule("m/__init__.py", "demo", []byte(header+b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Infer(out); err == nil || !strings.Contains(err.Error(), "up to 20") {
		t.Errorf("large component: %v", err)
	}
	out, err = CompileModule("m/__init__.py", "demo", []byte(header+"a = claim(\"A.\")\nb = claim(\"B.\")\nx = exclusive(a, b)\ny = equal(a, b)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Infer(out); err == nil || !strings.Contains(err.Error(), "contradict each other") {
		t.Errorf("exclusive and equal at once: %v", err)
	}
}
