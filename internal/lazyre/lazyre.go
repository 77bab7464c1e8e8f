// Package lazyre holds regular expressions that compile on first use.
//
// A package-level regexp.MustCompile runs in the package's init, so every
// nullius process paid for every pattern of every command (hundreds of
// microseconds, most of `nullius version`'s start). A lazyre.Regexp is a
// plain value until a method is called: declare it as
//
//	var fooRE = lazyre.New(`^foo$`)
//
// and call the methods of *regexp.Regexp on it; the pattern compiles once,
// on the first call, from any goroutine. An invalid pattern panics then,
// as MustCompile would at init (TestCompileAll in each package, or the
// package's own tests, exercise every pattern).
package lazyre

import (
	"regexp"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// Regexp is a regular expression compiled on first use. An invalid
// pattern panics in every call, as lazy.Value does.
type Regexp struct {
	re *lazy.Of[string, *regexp.Regexp]
}

// New returns a Regexp for expr without compiling it.
func New(expr string) *Regexp { return &Regexp{lazy.NewOf(regexp.MustCompile, expr)} }

// RE returns the compiled expression.
func (r *Regexp) RE() *regexp.Regexp { return r.re.Get() }

// The methods of *regexp.Regexp that nullius uses.

func (r *Regexp) String() string                             { return r.re.Arg() }
func (r *Regexp) MatchString(s string) bool                  { return r.RE().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                        { return r.RE().Match(b) }
func (r *Regexp) FindString(s string) string                 { return r.RE().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int             { return r.RE().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string       { return r.RE().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int     { return r.RE().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string     { return r.RE().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.RE().FindAllStringIndex(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.RE().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.RE().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string { return r.RE().ReplaceAllString(src, repl) }
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.RE().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) NumSubexp() int { return r.RE().NumSubexp() }
