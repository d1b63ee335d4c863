package judge_test

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// The differential test: gate (what adapters are built from) and judge
// (what the harness judges them with) must read every input alike. Each
// probe of one table runs its input through both implementations and the
// test fails naming every input on which they disagree.

// impl is one implementation of the primitives gate and judge share,
// reduced to functions over neutral types so that one table runs through
// either.
type impl struct {
	name           string
	parseJSON      func(raw []byte, maxDepth int) (any, error)
	contentType    func(h http.Header, want string) error
	keyValues      func(raw []byte, keys []keySpec) (map[string]string, error)
	validPointer   func(ptr string) bool
	pointerTokens  func(ptr string) []string
	escapeToken    func(s string) string
	lookup         func(doc any, ptr string) (any, bool)
	pointerIndex   func(tok string, n int) (int, bool)
	parseTimestamp func(s string) (time.Time, error)
	fresh          func(observed string, now time.Time, window, skew time.Duration) error
	equal          func(field string, got any, want string) error
	closed         func(schema []byte) error
	compile        func(name string, schema []byte) (func(any) error, error)
	// errOpen, errDraft and errRemote are the implementation's sentinels.
	errOpen, errDraft, errRemote error

	schemas map[string]compiled // compile's results by name
}

// compiled is one compile result.
type compiled struct {
	validate func(any) error
	err      error
}

// schema compiles raw under name once per implementation.
func (m *impl) schema(name string, raw []byte) (func(any) error, error) {
	if c, ok := m.schemas[name]; ok {
		return c.validate, c.err
	}
	v, err := m.compile(name, raw)
	m.schemas[name] = compiled{v, err}
	return v, err
}

// keySpec is a key=value line for either implementation.
type keySpec struct {
	name    string
	pattern *regexp.Regexp
}

// gateImpl returns gate's implementation.
func gateImpl() *impl {
	return &impl{
		name:        "gate",
		parseJSON:   func(raw []byte, d int) (any, error) { return gate.ParseJSON(raw, gate.Limits{MaxDepth: d}) },
		contentType: gate.CheckContentType,
		keyValues: func(raw []byte, keys []keySpec) (map[string]string, error) {
			specs := make([]gate.KeySpec, len(keys))
			for i, k := range keys {
				specs[i] = gate.KeySpec{Name: k.name, Pattern: k.pattern}
			}
			return gate.ParseKeyValues(raw, specs)
		},
		validPointer:   gate.ValidPointer,
		pointerTokens:  gate.PointerTokens,
		escapeToken:    gate.EscapePointerToken,
		lookup:         gate.Lookup,
		pointerIndex:   gate.PointerIndex,
		parseTimestamp: gate.ParseTimestamp,
		fresh:          gate.Fresh,
		equal:          gate.Equal,
		closed:         gate.Closed,
		compile: func(name string, raw []byte) (func(any) error, error) {
			s, err := gate.Compile(name, raw)
			if err != nil {
				return nil, err
			}
			return s.Validate, nil
		},
		errOpen: gate.ErrOpenSchema, errDraft: gate.ErrDraft, errRemote: gate.ErrRemoteRef,
		schemas: map[string]compiled{},
	}
}

// judgeImpl returns the judge's implementation.
func judgeImpl() *impl {
	return &impl{
		name:        "judge",
		parseJSON:   func(raw []byte, d int) (any, error) { return judge.ParseJSON(raw, judge.Limits{MaxDepth: d}) },
		contentType: judge.CheckContentType,
		keyValues: func(raw []byte, keys []keySpec) (map[string]string, error) {
			specs := make([]judge.KeySpec, len(keys))
			for i, k := range keys {
				specs[i] = judge.KeySpec{Name: k.name, Pattern: k.pattern}
			}
			return judge.ParseKeyValues(raw, specs)
		},
		validPointer:   judge.ValidPointer,
		pointerTokens:  judge.PointerTokens,
		escapeToken:    judge.EscapePointerToken,
		lookup:         judge.Lookup,
		pointerIndex:   judge.PointerIndex,
		parseTimestamp: judge.ParseTimestamp,
		fresh:          judge.Fresh,
		equal:          judge.Equal,
		closed:         judge.Closed,
		compile: func(name string, raw []byte) (func(any) error, error) {
			s, err := judge.Compile(name, raw)
			if err != nil {
				return nil, err
			}
			return s.Validate, nil
		},
		errOpen: judge.ErrOpenSchema, errDraft: judge.ErrDraft, errRemote: judge.ErrRemoteRef,
		schemas: map[string]compiled{},
	}
}

// probe is one input of the table: its name, and what an implementation
// makes of it, as a value both implementations can produce.
type probe struct {
	name string
	run  func(m *impl) any
}

// verdict is what an implementation made of one input.
type verdict struct {
	Accepted bool
	// Gate and Reason are a rejection's.
	Gate, Reason string
	// Fault names an error that is no rejection: its sentinel, or "other".
	Fault string
	// Value is the result of an accepted input.
	Value any
}

// verdictOf turns a result and error of implementation m into a verdict.
func (m *impl) verdictOf(v any, err error) verdict {
	if err == nil {
		return verdict{Accepted: true, Value: v}
	}
	if r, ok := judge.AsRejection(err); ok {
		return verdict{Gate: string(r.Gate), Reason: r.Reason}
	}
	if r, ok := gate.AsRejection(err); ok {
		return verdict{Gate: string(r.Gate), Reason: r.Reason}
	}
	switch {
	case errors.Is(err, m.errOpen):
		return verdict{Fault: "open at " + quotedPointer(err)}
	case errors.Is(err, m.errDraft):
		return verdict{Fault: "draft"}
	case errors.Is(err, m.errRemote):
		return verdict{Fault: "remote ref"}
	}
	return verdict{Fault: "other"}
}

// quotedPointer returns the JSON pointer an open-schema error names: the
// first quoted string of its message.
func quotedPointer(err error) string {
	q := regexp.MustCompile(`"(?:[^"\\]|\\.)*"`).FindString(err.Error())
	ptr, uerr := strconv.Unquote(q)
	if uerr != nil {
		return "unreadable: " + err.Error()
	}
	return ptr
}

// disagreements runs every probe through a and b and describes each input
// on which they differ, naming it.
func disagreements(probes []probe, a, b *impl) []string {
	var out []string
	for _, p := range probes {
		ra, rb := p.run(a), p.run(b)
		if !reflect.DeepEqual(ra, rb) {
			out = append(out, fmt.Sprintf("%s (-%s +%s):\n%s", p.name, a.name, b.name, describeDiff(ra, rb)))
		}
	}
	return out
}

// describeDiff renders how x and y differ: cmp.Diff, unless a value is
// nested so deep that cmp's slice diffing, exponential in depth, would not
// finish (a document 32 levels deep is already too deep).
func describeDiff(x, y any) string {
	if nesting(x) > 12 || nesting(y) > 12 {
		return fmt.Sprintf("-%.300v\n+%.300v", x, y)
	}
	return cmp.Diff(x, y)
}

// nesting returns how deep slices, maps and structs nest in v.
func nesting(v any) int {
	return nestingOf(reflect.ValueOf(v))
}

// nestingOf returns how deep slices, maps and structs nest in v.
func nestingOf(v reflect.Value) int {
	deepest := 0
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			return nestingOf(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			deepest = max(deepest, nestingOf(v.Index(i)))
		}
		return deepest + 1
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			deepest = max(deepest, nestingOf(it.Value()))
		}
		return deepest + 1
	case reflect.Struct:
		for i := range v.NumField() {
			deepest = max(deepest, nestingOf(v.Field(i)))
		}
		return deepest + 1
	}
	return 0
}

// TestDifferential runs gate and the judge over the whole table: the
// static inputs, the generated truncations and every variant of the
// built-in corpus.
func TestDifferential(t *testing.T) {
	probes := table(t)
	checkNames(t, probes)
	for _, d := range disagreements(probes, gateImpl(), judgeImpl()) {
		t.Error(d)
	}
	t.Logf("%d inputs", len(probes))
}

// TestDifferentialCoversEveryReason keeps the table meaningful: gate's
// verdicts over it include every reason the shared primitives can give.
func TestDifferentialCoversEveryReason(t *testing.T) {
	g := gateImpl()
	seen := map[string]bool{}
	accepted := 0
	for _, p := range table(t) {
		collect(p.run(g), seen, &accepted)
	}
	want := append(protocol.Reasons(protocol.GateParse), protocol.ReasonSchemaViolation,
		protocol.ReasonBindingMismatch, protocol.ReasonStale, protocol.ReasonFuture, protocol.ReasonBadTimestamp)
	for _, r := range want {
		if !seen[r] {
			t.Errorf("no input of the table gives reason %s", r)
		}
	}
	if accepted == 0 {
		t.Error("no input of the table is accepted")
	}
}

// collect records the reasons in v (a verdict or a struct of verdicts).
func collect(v any, seen map[string]bool, accepted *int) {
	switch x := v.(type) {
	case verdict:
		seen[x.Reason] = true
		if x.Accepted {
			*accepted++
		}
	case variantVerdict:
		for _, sub := range x.all() {
			collect(sub, seen, accepted)
		}
	}
}

// checkNames fails on an empty or repeated probe name.
func checkNames(t *testing.T, probes []probe) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range probes {
		if p.name == "" || seen[p.name] {
			t.Errorf("probe name %q is empty or repeated", p.name)
		}
		seen[p.name] = true
	}
}

// TestDifferentialNamesPlantedDisagreement proves the comparison can
// fail: a judge that lets duplicate names through, and one that calls
// NaN and Infinity syntax errors, must each be caught on exactly the inputs
// where gate reports what they hide, and every such input must be named.
func TestDifferentialNamesPlantedDisagreement(t *testing.T) {
	probes := table(t)
	tests := []struct {
		name    string
		plant   func(r *judge.Rejection) (*judge.Rejection, bool) // the wrong reading; false: accept
		reason  string                                            // the reason the plant hides
		samples []string                                          // inputs that must be named
	}{
		{
			name:   "duplicate names let through",
			plant:  func(r *judge.Rejection) (*judge.Rejection, bool) { return r, r.Reason != protocol.ReasonDuplicateName },
			reason: protocol.ReasonDuplicateName,
			samples: []string{"json/duplicate/plain", "json/duplicate/escaped-equivalent", "json/duplicate/solidus-escaped",
				"variant/review_status/approved/duplicate_member/change_id#first"},
		},
		{
			name: "NaN and Infinity read as syntax",
			plant: func(r *judge.Rejection) (*judge.Rejection, bool) {
				if r.Reason == protocol.ReasonNonfinite {
					return &judge.Rejection{Gate: r.Gate, Reason: protocol.ReasonSyntax, Err: r.Err}, true
				}
				return r, true
			},
			reason:  protocol.ReasonNonfinite,
			samples: []string{"json/nonfinite/NaN", "json/range/1e309"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := disagreements(probes, gateImpl(), plantedJudge(tt.plant))
			named := map[string]bool{}
			for _, d := range found {
				named[strings.SplitN(d, " ", 2)[0]] = true
			}
			for _, s := range tt.samples {
				if !named[s] {
					t.Errorf("the planted disagreement on %s is not reported", s)
				}
			}
			if want := hiding(probes, tt.reason); len(found) != want {
				t.Errorf("%d disagreements reported, want %d (the inputs gate rejects with %s)", len(found), want, tt.reason)
			}
			t.Logf("%d disagreements reported; the first:\n%s", len(found), strings.Join(found[:min(2, len(found))], "\n"))
		})
	}
}

// plantedJudge returns the judge with a wrong JSON parser: plant rereads
// each of its rejections, returning the rejection to report or false to
// accept the document instead.
func plantedJudge(plant func(r *judge.Rejection) (*judge.Rejection, bool)) *impl {
	planted := judgeImpl()
	planted.name = "planted"
	parse := planted.parseJSON
	planted.parseJSON = func(raw []byte, d int) (any, error) {
		v, err := parse(raw, d)
		r, ok := judge.AsRejection(err)
		if !ok {
			return v, err
		}
		if r, reject := plant(r); reject {
			return nil, r
		}
		return nil, nil
	}
	return planted
}

// hiding counts the probes that parse JSON (json/, truncate/ and variant/
// probes) whose gate verdict holds reason.
func hiding(probes []probe, reason string) int {
	g := gateImpl()
	n := 0
	for _, p := range probes {
		kind, _, _ := strings.Cut(p.name, "/")
		if kind != "json" && kind != "truncate" && kind != "variant" {
			continue
		}
		seen := map[string]bool{}
		accepted := 0
		collect(p.run(g), seen, &accepted)
		if seen[reason] {
			n++
		}
	}
	return n
}
