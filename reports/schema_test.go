package reports_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/mutant"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// requireValidators is the environment variable that makes a missing
// validator (xmllint) fail the schema tests instead of skipping them: CI
// sets it, so that a machine without libxml2-utils cannot pass unchecked.
const requireValidators = "TOOLCERT_REQUIRE_VALIDATORS"

// schemaFeatures are the built-in features the schema tests run: a
// feature with tags and a description, one with a background, one with a
// scenario outline, and one scenario of generated variants (cases), named
// by its line.
var schemaFeatures = []string{
	"features/arguments.feature",
	"features/calls_refund.feature",
	"features/parse_limits.feature",
	"features/generated_variants.feature:22",
}

// safeFeatures are the features of the run that certifies level safe:
// schemaFeatures, and the generated variants of review_status, some of
// which the mutant of that run passes at level safe only.
var safeFeatures = append(slices.Clone(schemaFeatures), "features/generated_variants.feature:13")

// schemaRuns are four real runs of the built-in features: one that
// passes (the reference), one that fails (a mutant), one interrupted after
// its first scenario, and one that certifies level safe of a mutant that
// passes it and fails strict (cases that pass at one level and fail at the
// other, a strict-only case), to which a strict-only scenario is added:
// one of the failing run's failed scenarios, as a scenario tagged @strict
// is recorded at level safe. They are run once for every schema test.
var schemaRuns = sync.OnceValues(func() (map[string]*reports.Result, error) {
	runs := map[string]*reports.Result{}
	pass, err := schemaRun(context.Background(), reference.InProcess(), nil, "")
	if err != nil {
		return nil, fmt.Errorf("passing run: %w", err)
	}
	runs["passing"] = pass
	m, err := mutant.InProcess("validator-text-in-error")
	if err != nil {
		return nil, err
	}
	if runs["failing"], err = schemaRun(context.Background(), m, nil, ""); err != nil {
		return nil, fmt.Errorf("failing run: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runs["interrupted"], err = schemaRun(ctx, reference.InProcess(), cancelWriter(cancel), "")
	if !errors.Is(err, runner.ErrInterrupted) {
		return nil, fmt.Errorf("interrupted run: %v, want %w", err, runner.ErrInterrupted)
	}
	if m, err = mutant.InProcess("additional-properties-ignored"); err != nil {
		return nil, err
	}
	if runs["safe"], err = schemaRun(context.Background(), m, nil, reports.LevelSafe, safeFeatures...); err != nil {
		return nil, fmt.Errorf("safe run: %w", err)
	}
	addStrictOnly(runs["safe"], runs["failing"])
	return runs, nil
})

// addStrictOnly adds to r the first failed scenario of from that has
// steps, as a scenario tagged @strict is at level safe: strict only there,
// failed at level strict, its evidence about level strict.
func addStrictOnly(r, from *reports.Result) {
	for _, sc := range from.Scenarios {
		if sc.Status != reports.Failed || len(sc.Steps) == 0 || len(sc.Cases) > 0 {
			continue
		}
		sc.Tags = append(slices.Clone(sc.Tags), reports.StrictTag)
		sc.Status = reports.StrictOnly
		sc.Levels = map[reports.Level]reports.Status{reports.LevelSafe: reports.StrictOnly, reports.LevelStrict: reports.Failed}
		sc.Evidence = slices.Clone(sc.Evidence)
		for i := range sc.Evidence {
			sc.Evidence[i].Level = reports.LevelStrict
		}
		r.Scenarios = append(r.Scenarios, sc)
		r.Tally()
		return
	}
}

// cancelWriter is a progress writer that cancels the run at the first
// finished scenario.
type cancelWriter context.CancelFunc

func (c cancelWriter) Write(p []byte) (int, error) {
	c()
	return len(p), nil
}

// schemaRun runs schemaFeatures (or paths, when given) against tgt at
// level ("" for the default).
func schemaRun(ctx context.Context, tgt targets.Target, progress io.Writer, level reports.Level, paths ...string) (*reports.Result, error) {
	if len(paths) == 0 {
		paths = schemaFeatures
	}
	cfg := runner.Config{Features: toolcert.Features(), FeaturePaths: paths, Fixtures: toolcert.Fixtures(),
		Target: tgt, Profile: targets.DefaultProfile(), Seed: 7, Concurrency: 4, Level: level}
	if progress != nil {
		cfg.Progress = progress
	}
	return runner.Run(ctx, cfg)
}

// runsForSchemas returns the four runs, checking that each is what its
// name says.
func runsForSchemas(t *testing.T) map[string]*reports.Result {
	t.Helper()
	runs, err := schemaRuns()
	if err != nil {
		t.Fatal(err)
	}
	if s := runs["passing"].Summary; s.Failed != 0 || s.Passed == 0 {
		t.Fatalf("the passing run: %+v", s)
	}
	if s := runs["failing"].Summary; s.Failed == 0 {
		t.Fatalf("the failing run failed nothing: %+v", s)
	}
	if s := runs["interrupted"].Summary; !s.Interrupted || s.Skipped == 0 {
		t.Fatalf("the interrupted run: %+v", s)
	}
	if s := runs["passing"].Summary; s.Cases == 0 {
		t.Fatalf("the passing run ran no generated case: %+v", s)
	}
	if r := runs["safe"]; r.Level != reports.LevelSafe || r.Summary.StrictOnly == 0 || !levelsDiffer(r) {
		t.Fatalf("the safe run: level %q, no strict-only scenario, or no case whose levels differ: %+v", r.Level, r.Summary)
	}
	for _, sc := range runs["passing"].Scenarios {
		if sc.Line == 0 || sc.Gherkin == nil || slices.ContainsFunc(sc.Steps, func(st reports.Step) bool { return st.Line == 0 }) {
			t.Errorf("scenario %q of %s has no line, or a step without one: %+v", sc.Name, sc.Feature, sc)
		}
	}
	return runs
}

// levelsDiffer reports whether a case of r has another status at level
// strict than at level safe.
func levelsDiffer(r *reports.Result) bool {
	for _, sc := range r.Scenarios {
		for _, c := range sc.Cases {
			if c.StatusAt(reports.LevelSafe) != c.StatusAt(reports.LevelStrict) {
				return true
			}
		}
	}
	return false
}

// render renders r in one format.
func render(t *testing.T, format string, r *reports.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := reports.Formats()[format].Render(&buf, r); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return buf.Bytes()
}

// TestReportsMeetConsumerSchemas validates cucumber.json,
// cucumber-jvm.json, ctrf.json and results.sarif of a passing, a failing,
// an interrupted run and one that certifies level safe against the
// schemas their consumers publish (testdata/schemas), in process.
func TestReportsMeetConsumerSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the harness four times")
	}
	runs := runsForSchemas(t)
	for _, f := range []struct{ format, schema string }{
		{"cucumber", "cucumber-js.json"},
		{"cucumber-jvm", "cucumber-jvm.json"},
		{"ctrf", "ctrf.schema.json"},
		{"sarif", "sarif-schema-2.1.0.json"},
	} {
		schema := compileSchema(t, f.schema)
		for name, r := range runs {
			t.Run(f.format+"/"+name, func(t *testing.T) {
				out := render(t, f.format, r)
				doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
				if err != nil {
					t.Fatalf("%s is not JSON: %v", f.format, err)
				}
				if err := schema.Validate(doc); err != nil {
					t.Errorf("%s of the %s run does not meet %s:\n%v", f.format, name, f.schema, err)
				}
			})
		}
	}
}

// compileSchema compiles a vendored JSON schema, with format assertions,
// without the network.
func compileSchema(tb testing.TB, name string) *jsonschema.Schema {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "schemas", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(name, doc); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		tb.Fatalf("compile %s: %v", name, err)
	}
	return s
}

// TestSchemasRejectWhatTheyShould: each vendored JSON schema refuses a
// report with one of the faults this package once had, so a validation
// that passes says something.
func TestSchemasRejectWhatTheyShould(t *testing.T) {
	tests := []struct{ name, schema, doc, why string }{
		{"cucumber step without arguments", "cucumber-js.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","tags":[],"elements":[{"id":"a;b","line":2,"keyword":"Scenario","name":"b","tags":[],"steps":[{"keyword":"* ","name":"s","line":3,"result":{"status":"passed"}}]}]}]`,
			"cucumber-js requires arguments on every step"},
		{"cucumber tag without line", "cucumber-js.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","tags":[{"name":"@t"}],"elements":[]}]`,
			"cucumber-js requires a line on every tag"},
		{"cucumber feature without tags", "cucumber-js.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","elements":[]}]`,
			"cucumber-js requires tags on every feature"},
		{"cucumber-jvm step with arguments", "cucumber-jvm.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","description":"","elements":[{"id":"a;b","line":2,"type":"scenario","keyword":"Scenario","name":"b","description":"","steps":[{"keyword":"* ","name":"s","line":3,"arguments":[],"result":{"status":"passed"}}]}]}]`,
			"cucumber-jvm has no arguments on a step"},
		{"cucumber-jvm scenario tag with a line", "cucumber-jvm.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","description":"","elements":[{"id":"a;b","line":2,"type":"scenario","keyword":"Scenario","name":"b","description":"","tags":[{"name":"@t","line":1}],"steps":[]}]}]`,
			"cucumber-jvm gives a scenario's tag its name only"},
		{"cucumber-jvm feature tag without location", "cucumber-jvm.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","description":"","tags":[{"name":"@t","type":"Tag"}],"elements":[]}]`,
			"cucumber-jvm requires a location on a feature's tag"},
		{"cucumber-jvm feature without description", "cucumber-jvm.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","elements":[]}]`,
			"cucumber-jvm requires a description on every feature"},
		{"cucumber-jvm ambiguous step", "cucumber-jvm.json",
			`[{"uri":"a","id":"a","line":1,"keyword":"Feature","name":"a","description":"","elements":[{"id":"a;b","line":2,"type":"scenario","keyword":"Scenario","name":"b","description":"","steps":[{"keyword":"* ","name":"s","line":3,"result":{"status":"ambiguous"}}]}]}]`,
			"cucumber-jvm has no status ambiguous"},
		{"ctrf test with a null extra", "ctrf.schema.json",
			`{"reportFormat":"CTRF","specVersion":"0.0.0","results":{"tool":{"name":"t"},"summary":{"tests":1,"passed":1,"failed":0,"skipped":0,"pending":0,"other":0,"start":0,"stop":0},"tests":[{"name":"n","status":"passed","duration":0,"extra":null}]}}`,
			"extra must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := compileSchema(t, tt.schema).Validate(doc); err == nil {
				t.Errorf("%s accepts it, but %s", tt.schema, tt.why)
			}
		})
	}
}

// TestCucumberSchemasTellTheFormsApart: cucumber-jvm.json refuses the
// cucumber-js form of each run, and cucumber-js.json the cucumber-jvm form,
// each for (at least) the differences the two forms exist for, so that
// each form's validation says something about its shape.
func TestCucumberSchemasTellTheFormsApart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the harness four times")
	}
	runs := runsForSchemas(t)
	tests := []struct {
		format, schema string
		want           []string
	}{
		// A step's arguments, a tag's line, a feature tag's type and location.
		{"cucumber", "cucumber-jvm.json", []string{"additional arguments", "additional line", "missing location", "missing type"}},
		{"cucumber-jvm", "cucumber-js.json", []string{"additional location", "additional type", "missing arguments", "missing line"}},
	}
	for _, tt := range tests {
		schema := compileSchema(t, tt.schema)
		for name, r := range runs {
			t.Run(tt.format+"/"+name, func(t *testing.T) {
				doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(render(t, tt.format, r)))
				if err != nil {
					t.Fatal(err)
				}
				err = schema.Validate(doc)
				if err == nil {
					t.Fatalf("%s accepts %s of the %s run", tt.schema, tt.format, name)
				}
				got := violations(err)
				for _, v := range tt.want {
					if !slices.Contains(got, v) {
						t.Errorf("%s refuses %s of the %s run, but not for %q: %q", tt.schema, tt.format, name, v, got)
					}
				}
			})
		}
	}
}

// violations lists what a validation error says: "missing P" and
// "additional P" for each required or forbidden property, the kind's type
// for any other leaf; sorted, each once.
func violations(err error) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	seen := map[string]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, p := range k.Missing {
				seen["missing "+p] = true
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				seen["additional "+p] = true
			}
		default:
			if len(e.Causes) == 0 {
				seen[fmt.Sprintf("%T", k)] = true
			}
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return slices.Sorted(maps.Keys(seen))
}

// TestJUnitMeetsConsumerSchemas validates junit.xml of the four runs with
// xmllint: the whole file against the Jenkins xUnit plugin's junit-10.xsd,
// and each testsuite, as Surefire writes one per file, against Maven
// Surefire's surefire-test-report-3.0.xsd.
func TestJUnitMeetsConsumerSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the harness four times")
	}
	xmllint := lookXmllint(t)
	for name, r := range runsForSchemas(t) {
		t.Run(name, func(t *testing.T) {
			out := render(t, "junit", r)
			validateXML(t, xmllint, "junit-10.xsd", out)
			suites := junitSuites(t, out)
			if len(suites) == 0 {
				t.Fatal("junit.xml has no testsuite")
			}
			for _, s := range suites {
				validateXML(t, xmllint, "surefire-test-report-3.0.xsd", s)
			}
		})
	}
}

// TestJUnitSchemasRejectWhatTheyShould: the XSDs refuse what junit.xml
// once wrote (a testsuite without errors, a skipped count on testsuites,
// a failure without a type for Surefire), so a validation that passes
// says something.
func TestJUnitSchemasRejectWhatTheyShould(t *testing.T) {
	xmllint := lookXmllint(t)
	tests := []struct{ name, xsd, doc string }{
		{"testsuite without errors", "junit-10.xsd",
			`<testsuites><testsuite name="a" tests="0" failures="0" skipped="0"></testsuite></testsuites>`},
		{"testsuites with skipped", "junit-10.xsd",
			`<testsuites name="t" tests="0" failures="0" errors="0" skipped="0"></testsuites>`},
		{"failure without type", "surefire-test-report-3.0.xsd",
			`<testsuite name="a" tests="1" failures="1" errors="0" skipped="0"><testcase name="c" time="0"><failure message="m">x</failure></testcase></testsuite>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := xmllintValidate(xmllint, tt.xsd, []byte(tt.doc)); err == nil {
				t.Errorf("%s accepts %s", tt.xsd, tt.doc)
			}
		})
	}
}

// lookXmllint returns the path of xmllint, or skips the test when there is
// none, unless TOOLCERT_REQUIRE_VALIDATORS=1 makes that a failure.
func lookXmllint(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("xmllint")
	if err == nil {
		return path
	}
	msg := "xmllint not found: install libxml2-utils (apt-get install -y libxml2-utils) to validate junit.xml against junit-10.xsd and Surefire's XSD"
	if os.Getenv(requireValidators) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, requireValidators)
	}
	t.Skip(msg)
	return ""
}

func validateXML(t *testing.T, xmllint, xsd string, doc []byte) {
	t.Helper()
	if err := xmllintValidate(xmllint, xsd, doc); err != nil {
		t.Errorf("does not meet %s: %v\n%s", xsd, err, doc)
	}
}

// xmllintValidate validates doc against testdata/schemas/xsd with xmllint.
func xmllintValidate(xmllint, xsd string, doc []byte) error {
	cmd := exec.Command(xmllint, "--noout", "--nonet", "--schema", filepath.Join("testdata", "schemas", xsd), "-")
	cmd.Stdin = bytes.NewReader(doc)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("xmllint: %w: %s", err, out)
	}
	return nil
}

// junitSuites returns each testsuite of a junit.xml as a document of its
// own, as Surefire writes one file per suite.
func junitSuites(t *testing.T, junit []byte) [][]byte {
	t.Helper()
	var doc struct {
		Suites []struct {
			Attrs []xml.Attr `xml:",any,attr"`
			Inner []byte     `xml:",innerxml"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(junit, &doc); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	var out [][]byte
	for _, s := range doc.Suites {
		var b bytes.Buffer
		b.WriteString(xml.Header + "<testsuite")
		for _, a := range s.Attrs {
			fmt.Fprintf(&b, ` %s="`, a.Name.Local)
			_ = xml.EscapeText(&b, []byte(a.Value))
			b.WriteString(`"`)
		}
		b.WriteString(">")
		b.Write(s.Inner)
		b.WriteString("</testsuite>\n")
		out = append(out, b.Bytes())
	}
	return out
}
