package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// quickSettings reads what the strict decoder (decodeSettings) reads of
// every configuration file it takes, and takes the plain ones Gaia
// packages have.
func FuzzQuickSettings(f *testing.F) {
	for _, s := range settingsSeeds(f) {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, src string, pyproject bool) {
		got, ok := quickSettings([]byte(src), pyproject)
		if !ok {
			return
		}
		want, err := decodeSettings("config.toml", []byte(src), pyproject)
		if err != nil {
			t.Fatalf("quickSettings took %q (pyproject %v), which the decoder refuses: %v", src, pyproject, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q (pyproject %v): quickSettings %#v, decoder %#v", src, pyproject, got, want)
		}
	})
}

// settingsSeeds are the fixtures' pyproject.toml files, and shapes
// at the edges of what quickSettings takes.
func settingsSeeds(t testing.TB) []string {
	// The fixtures' packages are two or three levels down.
	var out []string
	for _, pattern := range []string{"../../fixtures/*/*/" + PyprojectTOML, "../../fixtures/*/*/*/" + PyprojectTOML} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	if len(out) == 0 {
		t.Fatal("no pyproject.toml found among the fixtures")
	}
	const project = "[project]\nname = \"a-gaia\"\n"
	return append(out,
		project,
		project+"[tool.nullius]\n",
		project+"[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n",
		project+"[tool.nullius]\nignore = [\"GAIA505\"]\nexclude = [\"scratch/**\"]\nwarnings = false\nextend = \"../nullius.toml\"\n",
		project+"[tool.nullius]\nignore = []\nexclude = []\nwarnings = true\n",
		project+"[tool.nullius.per-file-ignores]\n\"tests/**\" = [\"GAIA011\"]\n",
		project+"[tool.nullius]\n[tool.nullius.per-file-ignores]\n",
		project+"[tool.nullius]\nper-file-ignores = { \"a\" = [\"b\"] }\n",
		project+"[tool.nullius]\nIgnore = [\"x\"]\n",
		project+"[tool.nullius]\nignores = [\"x\"]\n",
		project+"[tool.nullius]\nwarnings = \"no\"\n",
		project+"[tool.nullius]\nignore = \"GAIA505\"\n",
		project+"[tool.nullius]\nignore = [true]\n",
		project+"[tool.nullius.exclude]\n",
		project+"[tool.nullius.other]\n",
		project+"[tool.Nullius]\nignore = [\"x\"]\n",
		project+"[Tool.nullius]\nignore = [\"x\"]\n",
		project+"[tool]\nnullius = \"x\"\n",
		project+"[tool]\nNullius = true\n",
		"tool = \"x\"\n",
		project+"[tool.nullius]\nignore = [\"a\"]\n[tool.nullius]\nexclude = [\"b\"]\n",
		project+"[tool.nullius]\nignore = [\"a\"]\nignore = [\"b\"]\n",
		project+"[tool.ruff]\nline-length = 100\n[tool.nullius]\nignore = [\"a\"]\n",
		project+"[tool.gaia]\nx = \"y\"\n[tool.nullius]\nnode-id = 'n1'\n",
		project+"[tool.nullius]\nignore = [\"a\"\n",
		"ignore = [\"GAIA505\"]\nwarnings = false\n[per-file-ignores]\n\"tests/**\" = [\"GAIA011\"]\n",
		"extend = \"../nullius.toml\"\nexclude = [\"x\"]\n",
		"campaign-id = \"c0ffee12\"\n",
		"[per-file-ignores]\n",
		"[Per-File-Ignores]\n\"a\" = [\"b\"]\n",
		"[other]\n",
		"Warnings = false\n",
		"warnings = false\nwarnings = true\n",
	)
}

// A plain [tool.nullius] table and a plain nullius.toml are taken, and
// settings the decoder must judge are not.
func TestQuickSettingsTakes(t *testing.T) {
	for _, src := range settingsSeeds(t) {
		for _, pyproject := range []bool{true, false} {
			if _, ok := quickSettings([]byte(src), pyproject); ok {
				if _, err := decodeSettings("config.toml", []byte(src), pyproject); err != nil {
					t.Errorf("%q (pyproject %v) taken, but the decoder refuses it: %v", src, pyproject, err)
				}
			}
		}
	}
	if s, ok := quickSettings([]byte("ignore = [\"GAIA505\"]\n[per-file-ignores]\n\"tests/**\" = [\"GAIA011\"]\n"), false); !ok || len(s.PerFileIgnores) != 1 {
		t.Errorf("a plain nullius.toml: %+v, %v; want it taken", s, ok)
	}
	for _, src := range []string{
		"[project]\nname = \"a-gaia\"\n[tool.nullius]\nignore = [\"GAIA505\"]\nexclude = [\"scratch/**\"]\n",
		"[project]\nname = \"a-gaia\"\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n",
	} {
		if s, ok := quickSettings([]byte(src), true); !ok || s == nil {
			t.Errorf("%q: %+v, %v; want it taken", src, s, ok)
		}
	}
	for _, src := range []string{
		"[tool.nullius]\nIgnore = [\"x\"]\n", "[tool.nullius]\nignores = [\"x\"]\n", "[tool.nullius]\nwarnings = \"no\"\n",
		"[tool.nullius.other]\n", "[Tool.nullius]\n", "[tool]\nnullius = 1\n", "[tool.nullius]\nper-file-ignores = []\n",
	} {
		if _, ok := quickSettings([]byte(src), true); ok {
			t.Errorf("%q taken; it is the decoder's", src)
		}
	}
}

// BenchmarkPyprojectSettings reads the [tool.nullius] table of a plain
// pyproject.toml with the decoder and with quickSettings.
func BenchmarkPyprojectSettings(b *testing.B) {
	data := []byte("[project]\nname = \"idea-453-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n\n[tool.nullius]\nignore = [\"GAIA505\"]\nexclude = [\"scratch/**\"]\n")
	for name, read := range map[string]func() (*Settings, bool){
		"decoder": func() (*Settings, bool) { s, err := decodeSettings("pyproject.toml", data, true); return s, err == nil },
		"quick":   func() (*Settings, bool) { return quickSettings(data, true) },
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if s, ok := read(); !ok || s == nil {
					b.Fatal("not read")
				}
			}
		})
	}
}

// Every setting, its key spelled by Settings' toml tag, is read by
// quickSettings as the decoder reads it when given a plain value, in a
// nullius.toml and in a [tool.nullius] table, and is a key knownKeys
// suggests. setPlain is a third spelling of the settings: one it lacks
// would still be decoded, only slowly, and nothing else would notice.
func TestQuickSettingsKnowsEverySetting(t *testing.T) {
	typ := reflect.TypeFor[Settings]()
	var keys []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" || key == "-" {
			t.Fatalf("Settings.%s has no toml key", f.Name)
		}
		keys = append(keys, key)
		for _, pyproject := range []bool{false, true} {
			table := ""
			if pyproject {
				table = "tool.nullius"
			}
			set := false // by one document at least
			for _, doc := range plainSettings(t, table, key, f.Type) {
				if pyproject {
					doc = "[project]\nname = \"a-gaia\"\n[tool.nullius]\n" + doc
				}
				want, err := decodeSettings("config.toml", []byte(doc), pyproject)
				if err != nil {
					t.Fatalf("%q: the decoder refuses it: %v", doc, err)
				}
				set = set || !reflect.ValueOf(want).Elem().Field(i).IsZero()
				got, ok := quickSettings([]byte(doc), pyproject)
				if !ok {
					t.Errorf("%q (pyproject %v): not taken by quickSettings; teach setPlain (or the walk's tables) %s", doc, pyproject, key)
				} else if !reflect.DeepEqual(got, want) {
					t.Errorf("%q (pyproject %v): quickSettings %+v, decoder %+v", doc, pyproject, got, want)
				}
			}
			if !set {
				t.Fatalf("no document sets Settings.%s: the test's values miss it", f.Name)
			}
		}
	}
	if !sameSet(keys, knownKeys) {
		t.Errorf("knownKeys %v; Settings' toml keys are %v", knownKeys, keys)
	}
}

// plainSettings writes documents setting key, of type typ, to plain
// values: a key's value for a string, boolean or array of them, a table
// below table for a map (the table's keys holding plain values).
func plainSettings(t *testing.T, table, key string, typ reflect.Type) []string {
	if vs := plainValues(typ); vs != nil {
		var docs []string
		for _, v := range vs {
			docs = append(docs, key+" = "+v+"\n")
		}
		return docs
	}
	if typ.Kind() == reflect.Map && typ.Key().Kind() == reflect.String {
		if vs := plainValues(typ.Elem()); vs != nil {
			header := "[" + strings.TrimPrefix(table+"."+key, ".") + "]\n"
			doc := header
			for i, v := range vs {
				doc += fmt.Sprintf("\"k%d/**\" = %s\n", i, v)
			}
			return []string{header + "\"k/**\" = " + vs[0] + "\n", doc}
		}
	}
	t.Fatalf("no plain TOML value for a setting of type %v: teach plainSettings (and quickSettings) one", typ)
	return nil
}

// plainValues are TOML spellings of values of type typ that plaintoml
// walks (nil if there are none): strings in both quotes, booleans,
// arrays of them, empty or not.
func plainValues(typ reflect.Type) []string {
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.String:
		return []string{`"v/**"`, `'v\d'`}
	case reflect.Bool:
		return []string{"true", "false"}
	case reflect.Slice:
		if vs := plainValues(typ.Elem()); vs != nil {
			return []string{"[]", "[" + strings.Join(vs, ", ") + "]"}
		}
	}
	return nil
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}
