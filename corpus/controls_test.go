package corpus_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/variant"
)

// controlVocabulary is what the catalogues of these tests may map.
var controlVocabulary = corpus.Vocabulary{
	Features:  []string{"duplicate_members.feature", "calls_approvals.feature"},
	Tags:      []string{"@calls"},
	Operators: []string{"duplicate_member", "nan"},
}

// goodCatalogue is a catalogue that lints clean under controlVocabulary.
const goodCatalogue = `{
  "controls": [
    {"id": "CWE-436", "title": "Interpretation Conflict", "source": "CWE", "section": "436", "url": "https://cwe.mitre.org/data/definitions/436.html"},
    {"id": "RFC8259-4", "title": "Objects", "source": "RFC 8259", "section": "4", "cwe": ["CWE-436"]},
    {"id": "LLM06:2025", "title": "Excessive Agency", "source": "OWASP Top 10 for LLM Applications 2025"}
  ],
  "features": {"duplicate_members.feature": ["RFC8259-4", "CWE-436"]},
  "tags": {"@calls": ["LLM06:2025"]},
  "operators": {"duplicate_member": ["CWE-436"]}
}`

func TestLintControls(t *testing.T) {
	tests := []struct {
		name    string
		why     string
		catalog string
		want    []string
	}{
		{name: "clean", why: "every name exists, every control is mapped", catalog: goodCatalogue},
		{
			name:    "not JSON",
			why:     "a file that does not decode is one problem with the whole file",
			catalog: `{"controls": [`,
			want:    []string{"controls.json: unexpected EOF"},
		},
		{
			name:    "unknown field",
			why:     "a typo is an error, not a silent default",
			catalog: `{"controls": [{"id": "CWE-1", "title": "t", "source": "CWE", "titel": "x"}]}`,
			want:    []string{`controls.json: json: unknown field "titel"`},
		},
		{
			name: "names that do not exist",
			why:  "a feature, tag or operator the harness does not have, and a control the catalogue does not hold",
			catalog: `{"controls": [{"id": "CWE-436", "title": "t", "source": "CWE"}],
				"features": {"duplicate_names.feature": ["CWE-436"]},
				"tags": {"@call": ["CWE-436"]},
				"operators": {"duplicate_member": ["CWE-999"], "nan": []}}`,
			want: []string{
				`controls.json: /features/duplicate_names.feature: no feature file "duplicate_names.feature" exists`,
				`controls.json: /tags/@call: no scenario tag "@call" exists`,
				`controls.json: /operators/duplicate_member/0: no control "CWE-999" in /controls`,
				`controls.json: /operators/nan: maps onto no control`,
			},
		},
		{
			name: "bad controls",
			why:  "a repeated ID, a blank title, a URL that is not http(s), a CWE control without a number, a relation to a control that is no CWE, a control nothing maps",
			catalog: `{"controls": [
				{"id": "CWE-436", "title": "t", "source": "CWE"},
				{"id": "CWE-436", "title": "again", "source": "CWE"},
				{"id": "X-1", "title": " ", "source": "S", "url": "javascript:alert(1)", "cwe": ["X-1"]},
				{"id": "CWE-x", "title": "t", "source": "CWE"}
				],
				"features": {"duplicate_members.feature": ["CWE-436", "X-1", "CWE-x"]}}`,
			want: []string{
				`controls.json: /controls/1/id: "CWE-436" is also the ID of /controls/0`,
				`controls.json: /controls/2/title: empty, or blank at an end`,
				`controls.json: /controls/2/url: "javascript:alert(1)" is not an absolute http(s) URL`,
				`controls.json: /controls/3: a CWE control has the source "CWE" and the ID CWE-<number>, and only a CWE control does`,
				`controls.json: /controls/2/cwe/0: "X-1" is not a CWE control of the catalogue`,
			},
		},
		{
			name:    "unmapped",
			why:     "a control nothing maps onto could only ever be not exercised",
			catalog: `{"controls": [{"id": "CWE-436", "title": "t", "source": "CWE"}, {"id": "CWE-20", "title": "t", "source": "CWE"}], "features": {"duplicate_members.feature": ["CWE-436"]}}`,
			want:    []string{`controls.json: /controls/1: no feature, tag or operator maps onto "CWE-20"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fstest.MapFS{corpus.ControlsFile: {Data: []byte(tt.catalog)}}
			var got []string
			for _, p := range corpus.LintControls(corpus.New(m), controlVocabulary) {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LintControls (%s) mismatch (-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

func TestLintControlsWithoutCatalogue(t *testing.T) {
	if got := corpus.LintControls(corpus.New(fstest.MapFS{}), controlVocabulary); got != nil {
		t.Errorf("a corpus without %s: %v, want no problem", corpus.ControlsFile, got)
	}
	if _, err := corpus.New(fstest.MapFS{}).Controls(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Controls of a corpus without a catalogue: %v, want fs.ErrNotExist", err)
	}
}

// TestBuiltinCatalogue: the built-in catalogue loads, names only the
// built-in features, their tags and the generator's operators, maps every
// operator, and every one of its controls is a CWE control or cites a URL.
func TestBuiltinCatalogue(t *testing.T) {
	c := corpus.New(toolcert.Fixtures())
	cat, err := c.Controls()
	if err != nil {
		t.Fatal(err)
	}
	features, err := fs.Glob(toolcert.Features(), "features/*.feature")
	if err != nil {
		t.Fatal(err)
	}
	v := corpus.Vocabulary{Tags: []string{"@calls", "@generated", "@mcp", "@slow", "@transport", "@upstream-v1"}, Operators: variant.Operators()}
	for _, f := range features {
		v.Features = append(v.Features, f[len("features/"):])
	}
	if got := corpus.LintControls(c, v); got != nil {
		t.Errorf("the built-in catalogue: %d problems:\n%s", len(got), problemLines(got))
	}
	for _, op := range variant.Operators() {
		if len(cat.Operators[op]) == 0 {
			t.Errorf("operator %s maps onto no control", op)
		}
	}
	for _, ctl := range cat.Controls {
		if ctl.URL == "" || ctl.Section == "" {
			t.Errorf("control %s has no URL or section", ctl.ID)
		}
	}
	for _, f := range v.Features {
		if len(cat.Features[f]) == 0 {
			t.Errorf("feature %s maps onto no control", f)
		}
	}
}

func ExampleLintControls() {
	m := fstest.MapFS{corpus.ControlsFile: {Data: []byte(`{
		"controls": [{"id": "CWE-436", "title": "Interpretation Conflict", "source": "CWE"}],
		"operators": {"duplicate_member": ["CWE-436"], "duplicate_members": ["CWE-436"]}}`)}}
	v := corpus.Vocabulary{Operators: variant.Operators()}
	for _, p := range corpus.LintControls(corpus.New(m), v) {
		fmt.Println(p)
	}
	// Output: controls.json: /operators/duplicate_members: no generator operator "duplicate_members" exists
}

func ExampleCorpus_Controls() {
	cat, err := corpus.New(toolcert.Fixtures()).Controls()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cat.Operators["duplicate_member"])
	// Output: [ASVS-v5.0.0-1.5.3 CWE-436 RFC8259-4]
}
