package record

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// inferCase is one rule of schema inference, shown on a few bodies.
type inferCase struct {
	name   string
	why    string
	bodies []string
	enum   bool
	want   map[string]string // pointer into the schema -> its JSON value
	absent []string          // pointers the schema must not have
	infs   []Inference       // inferences that must be among those returned
	noInfs []string          // pointer + " " + text fragment that must not be
}

func inferCases() []inferCase {
	return append(append(append(typeCases(), objectCases()...), formatCases()...), append(enumCases(), arrayCases()...)...)
}

func typeCases() []inferCase {
	return []inferCase{
		{name: "integer", why: "numbers without fraction or exponent are integers",
			bodies: []string{`{"n":1}`, `{"n":-20}`},
			want:   map[string]string{"/properties/n/type": `"integer"`},
			infs:   []Inference{{"/properties/n", "integer: none of the 2 numbers seen has a fraction or an exponent"}}},
		{name: "number by fraction", why: "one number with a fraction makes them all numbers",
			bodies: []string{`{"n":1}`, `{"n":2.5}`},
			want:   map[string]string{"/properties/n/type": `"number"`},
			noInfs: []string{"/properties/n integer"}},
		{name: "number by exponent", why: "an exponent is not an integer literal, even 1e3",
			bodies: []string{`{"n":1}`, `{"n":1e3}`},
			want:   map[string]string{"/properties/n/type": `"number"`}},
		{name: "number by 1.0", why: "1.0 has a fraction as written",
			bodies: []string{`{"n":1.0}`},
			want:   map[string]string{"/properties/n/type": `"number"`}},
		{name: "null with another type", why: "null beside a string gives a type array and says how often",
			bodies: []string{`{"a":"x"}`, `{"a":null}`, `{"a":"y"}`, `{"a":null}`, `{"a":"z"}`},
			want:   map[string]string{"/properties/a/type": `["string","null"]`, "/required": `["a"]`},
			infs:   []Inference{{"/properties/a", "seen null in 2 of 5 answers: null is allowed"}}},
		{name: "only null", why: "a member only ever null is typed null",
			bodies: []string{`{"a":null}`, `{"a":null}`},
			want:   map[string]string{"/properties/a": `{"type":"null"}`},
			infs:   []Inference{{"/properties/a", "only seen null (in 2 answers): no other type is allowed"}}},
		{name: "conflicting types", why: "an object in one answer and an array in another give an anyOf of both",
			bodies: []string{`{"x":{"a":1}}`, `{"x":[1]}`},
			want:   map[string]string{"/properties/x/anyOf/0/type": `"object"`, "/properties/x/anyOf/1/type": `"array"`, "/properties/x/anyOf/0/additionalProperties": `false`},
			absent: []string{"/properties/x/type"},
			infs:   []Inference{{"/properties/x", "conflicting types: object in 1, array in 1 of 2 answers: anyOf of each"}, {"/properties/x/anyOf/0", "closed: a member the answers never had is refused"}}},
		{name: "conflicting types with null", why: "null among conflicting types is one more branch",
			bodies: []string{`{"x":"s"}`, `{"x":2}`, `{"x":null}`},
			want:   map[string]string{"/properties/x/anyOf/2": `{"type":"null"}`},
			infs:   []Inference{{"/properties/x", "conflicting types: string in 1, integer in 1, null in 1 of 3 answers: anyOf of each"}}},
		{name: "root scalar", why: "the root may be a scalar",
			bodies: []string{`7`, `8`},
			want:   map[string]string{"/type": `"integer"`},
			infs:   []Inference{{"", "integer: none of the 2 numbers seen has a fraction or an exponent"}}},
		{name: "root conflict", why: "the root may take several types",
			bodies: []string{`[]`, `{}`},
			want:   map[string]string{"/anyOf/0/type": `"array"`, "/anyOf/1": `{"type":"object","properties":{},"additionalProperties":false}`}},
		{name: "booleans", why: "booleans are typed, nothing inferred",
			bodies: []string{`{"b":true}`, `{"b":false}`},
			want:   map[string]string{"/properties/b": `{"type":"boolean"}`}},
		{name: "longest string", why: "no maxLength, but the longest length in characters is named",
			bodies: []string{`{"s":"héllo"}`, `{"s":"hi"}`},
			absent: []string{"/properties/s/maxLength"},
			infs:   []Inference{{"/properties/s", "longest seen: 5 characters; no maxLength"}}},
	}
}

func objectCases() []inferCase {
	return []inferCase{
		{name: "optional member", why: "a member absent from one answer is not required",
			bodies: []string{`{"a":1,"b":"x"}`, `{"a":2,"b":"y"}`, `{"a":3}`},
			want:   map[string]string{"/required": `["a"]`, "/additionalProperties": `false`},
			infs:   []Inference{{"/properties/b", "absent in 1 of 3 answers: not required"}}},
		{name: "closed objects", why: "every object is closed, and each closedness is an inference",
			bodies: []string{`{"o":{"p":{}}}`},
			want:   map[string]string{"/properties/o/additionalProperties": `false`, "/properties/o/properties/p": `{"type":"object","properties":{},"additionalProperties":false}`},
			infs: []Inference{
				{"", "closed: a member the answers never had is refused"},
				{"/properties/o", "closed: a member the answers never had is refused"},
				{"/properties/o/properties/p", "closed: a member the answers never had is refused"},
			}},
		{name: "member counted per item", why: "under an array, members are counted in items, not answers",
			bodies: []string{`[{"a":1},{"a":2,"b":true}]`, `[{"a":3}]`},
			want:   map[string]string{"/items/required": `["a"]`},
			infs:   []Inference{{"/items/properties/b", "absent in 2 of 3 items: not required"}}},
		{name: "escaped member names", why: "a member name with / and ~ is escaped in the pointer",
			bodies: []string{`{"a/b~c":1}`, `{}`},
			infs:   []Inference{{"/properties/a~1b~0c", "absent in 1 of 2 answers: not required"}}},
	}
}

func formatCases() []inferCase {
	fmtCase := func(name, format string, values ...string) inferCase {
		c := inferCase{name: name, why: "every value is " + format}
		for _, v := range values {
			c.bodies = append(c.bodies, `{"s":`+jsonString(v)+`}`)
		}
		if format == "" {
			c.why = "not every value has one format"
			c.absent = []string{"/properties/s/format"}
			return c
		}
		c.want = map[string]string{"/properties/s/format": jsonString(format)}
		return c
	}
	return []inferCase{
		fmtCase("date-time", "date-time", "2019-11-17T17:43:43Z", "2019-11-19T10:00:00.5+02:00"),
		fmtCase("date", "date", "2019-11-17", "2020-02-29"),
		fmtCase("uri", "uri", "https://github.com/octo/hello/pull/1", "http://[::1]:8080/x?y=1"),
		fmtCase("email", "email", "octocat@github.com", "mona.lisa+tag@example.co.uk"),
		fmtCase("uuid", "uuid", "123e4567-e89b-12d3-a456-426614174000", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"),
		fmtCase("date-time with lower-case t", "", "2019-11-17t17:43:43Z"),
		fmtCase("date-time with a leap second", "", "2016-12-31T23:59:60Z"),
		fmtCase("date-time without zone", "", "2019-11-17T17:43:43"),
		fmtCase("date-time mixed with date", "", "2019-11-17T17:43:43Z", "2019-11-17"),
		fmtCase("impossible date", "", "2019-02-30"),
		fmtCase("relative uri", "", "/repos/octo/hello"),
		fmtCase("uri without host", "", "mailto:octocat@github.com"),
		fmtCase("uri with a space", "", "https://github.com/a b"),
		fmtCase("email without domain dot", "", "octocat@localhost"),
		fmtCase("uuid without dashes", "", "123e4567e89b12d3a456426614174000"),
		{name: "format inference", why: "a format is an inference naming how many values had it",
			bodies: []string{`{"t":"2019-11-17T17:43:43Z"}`, `{"t":"2019-11-18T17:43:43Z"}`},
			infs:   []Inference{{"/properties/t", "format date-time: every value seen (2) is an RFC 3339 date-time"}}},
	}
}

func enumCases() []inferCase {
	states := []string{`{"state":"APPROVED"}`, `{"state":"COMMENTED"}`, `{"state":"PENDING"}`, `{"state":"COMMENTED"}`, `{"state":"APPROVED"}`, `{"state":"PENDING"}`}
	return []inferCase{
		{name: "enum", why: "few values, each seen twice, in several answers: an enum in first-seen order",
			bodies: states, enum: true,
			want: map[string]string{"/properties/state/enum": `["APPROVED","COMMENTED","PENDING"]`},
			infs: []Inference{{"/properties/state", "enum of the values seen: APPROVED, COMMENTED, PENDING; a value the answers never had is refused"}}},
		{name: "enum hint without Enum", why: "without Enum, only an inference says it could be one",
			bodies: states,
			absent: []string{"/properties/state/enum"},
			infs:   []Inference{{"/properties/state", "took only 3 distinct values: APPROVED, COMMENTED, PENDING; --enum would make it an enum"}}},
		{name: "ids never enum", why: "values seen once each are ids or text, never an enum",
			bodies: []string{`{"id":"a1"}`, `{"id":"b2"}`, `{"id":"c3"}`}, enum: true,
			absent: []string{"/properties/id/enum"},
			noInfs: []string{"/properties/id distinct values", "/properties/id enum"}},
		{name: "one value seen once", why: "one value among repeated ones is enough to rule out an enum",
			bodies: []string{`{"s":"A"}`, `{"s":"A"}`, `{"s":"B"}`}, enum: true,
			absent: []string{"/properties/s/enum"}},
		{name: "one answer only", why: "repeats within one answer are not across answers",
			bodies: []string{`[{"s":"A"},{"s":"A"},{"s":"B"},{"s":"B"}]`}, enum: true,
			absent: []string{"/items/properties/s/enum"}},
		{name: "repeats within answers", why: "a value repeated in one answer only (a commit of two reviews) counts once",
			bodies: []string{`[{"c":"x"},{"c":"x"}]`, `[{"c":"y"},{"c":"y"}]`}, enum: true,
			absent: []string{"/items/properties/c/enum"}},
		{name: "nine values", why: "more than 8 distinct values is no enum",
			bodies: repeatEach(`{"s":"v%d"}`, 9, 2), enum: true,
			absent: []string{"/properties/s/enum"}},
		{name: "eight values", why: "8 distinct values is still an enum",
			bodies: repeatEach(`{"s":"v%d"}`, 8, 2), enum: true,
			want: map[string]string{"/properties/s/enum": `["v1","v2","v3","v4","v5","v6","v7","v8"]`}},
		{name: "nullable enum", why: "a nullable enum lists null, so the null answers pass",
			bodies: []string{`{"s":"A"}`, `{"s":null}`, `{"s":"A"}`}, enum: true,
			want: map[string]string{"/properties/s/enum": `["A",null]`, "/properties/s/type": `["string","null"]`}},
		{name: "formatted strings never enum", why: "a repeated timestamp is a time, not a vocabulary",
			bodies: []string{`{"t":"2019-11-17T17:43:43Z"}`, `{"t":"2019-11-17T17:43:43Z"}`}, enum: true,
			absent: []string{"/properties/t/enum"}},
		{name: "root string never enum", why: "only an object's member becomes an enum",
			bodies: []string{`"x"`, `"x"`}, enum: true,
			absent: []string{"/enum"}},
	}
}

func arrayCases() []inferCase {
	return []inferCase{
		{name: "only empty arrays", why: "an array only seen empty leaves its items undescribed",
			bodies: []string{`{"tags":[]}`, `{"tags":[]}`},
			want:   map[string]string{"/properties/tags": `{"type":"array"}`},
			infs:   []Inference{{"/properties/tags", "only seen empty: the items are not described"}}},
		{name: "items merged", why: "items are merged over every element of every answer",
			bodies: []string{`{"n":[1,2]}`, `{"n":[]}`, `{"n":[3.5]}`},
			want:   map[string]string{"/properties/n/items": `{"type":"number"}`},
			absent: []string{"/properties/n/maxItems"},
			infs:   []Inference{{"/properties/n", "longest seen: 2 items; no maxItems"}}},
		{name: "array of nulls and objects", why: "items may be nullable objects",
			bodies: []string{`[{"a":1},null]`},
			want:   map[string]string{"/items/type": `["object","null"]`},
			infs:   []Inference{{"/items", "seen null in 1 of 2 items: null is allowed"}}},
	}
}

// repeatEach returns n bodies made from format with 1..n, each times
// times.
func repeatEach(format string, n, times int) []string {
	var out []string
	for t := 0; t < times; t++ {
		for i := 1; i <= n; i++ {
			out = append(out, strings.Replace(format, "%d", itoa(i), 1))
		}
	}
	return out
}

func itoa(i int) string { return string(rune('0' + i)) }

// jsonString returns s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestInferRules(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range inferCases() {
		if seen[c.name] || c.why == "" {
			t.Fatalf("case %q: names must be unique and every case needs a why", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			schema, infs, err := Infer(bytesOf(c.bodies), InferOptions{Enum: c.enum})
			if err != nil {
				t.Fatalf("Infer: %v (%s)", err, c.why)
			}
			doc := checkSchema(t, schema, c.bodies)
			checkPointers(t, doc, c, schema)
			checkInferences(t, infs, c)
		})
	}
}

// checkPointers checks c.want and c.absent against the schema doc.
func checkPointers(t *testing.T, doc any, c inferCase, schema []byte) {
	t.Helper()
	for ptr, want := range c.want {
		got, ok := judge.Lookup(doc, ptr)
		if !ok {
			t.Errorf("%s: missing (%s)\n%s", ptr, c.why, schema)
			continue
		}
		var wantV any
		if err := json.Unmarshal([]byte(want), &wantV); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(jsonText(t, wantV), jsonText(t, got)); diff != "" {
			t.Errorf("%s (-want +got) (%s):\n%s", ptr, c.why, diff)
		}
	}
	for _, ptr := range c.absent {
		if got, ok := judge.Lookup(doc, ptr); ok {
			t.Errorf("%s = %v, want it absent (%s)", ptr, got, c.why)
		}
	}
}

// checkInferences checks c.infs and c.noInfs against infs, and that infs
// are sorted and distinct.
func checkInferences(t *testing.T, infs []Inference, c inferCase) {
	t.Helper()
	for _, want := range c.infs {
		if !slices.Contains(infs, want) {
			t.Errorf("missing inference %+v (%s); got:\n%s", want, c.why, listInferences(infs))
		}
	}
	for _, no := range c.noInfs {
		ptr, frag, _ := strings.Cut(no, " ")
		for _, inf := range infs {
			if inf.Pointer == ptr && strings.Contains(inf.What, frag) {
				t.Errorf("unwanted inference %+v (%s)", inf, c.why)
			}
		}
	}
	if !slices.IsSortedFunc(infs, func(a, b Inference) int { return strings.Compare(a.Pointer, b.Pointer) }) {
		t.Errorf("inferences not sorted by pointer:\n%s", listInferences(infs))
	}
	if len(slices.Compact(slices.Clone(infs))) != len(infs) {
		t.Errorf("inferences repeat:\n%s", listInferences(infs))
	}
}

// listInferences returns infs one a line, as the golden file has them.
func listInferences(infs []Inference) string {
	var b strings.Builder
	for _, inf := range infs {
		b.WriteString(jsonString(inf.Pointer) + ": " + inf.What + "\n")
	}
	return b.String()
}

// bytesOf returns bodies as byte slices.
func bytesOf(bodies []string) [][]byte {
	out := make([][]byte, len(bodies))
	for i, b := range bodies {
		out[i] = []byte(b)
	}
	return out
}

func TestInferKeepsOrder(t *testing.T) {
	schema, _, err := Infer(bytesOf([]string{`{"b":1,"a":1}`, `{"c":1,"a":1}`}), InferOptions{})
	if err != nil {
		t.Fatal(err)
	}
	text := string(schema)
	order := []string{`"$schema"`, `"title"`, `"type"`, `"properties"`, `"b"`, `"a"`, `"c"`, `"required"`, `"additionalProperties"`}
	at := -1
	for _, key := range order {
		i := strings.Index(text[at+1:], key)
		if i < 0 {
			t.Fatalf("%s not after the keys before it in:\n%s", key, text)
		}
		at += 1 + i
	}
	if !strings.HasPrefix(text, "{\n  \"$schema\": \""+protocol.DraftURI+"\",") {
		t.Errorf("schema does not start with $schema:\n%s", text)
	}
}

func TestInferRefuses(t *testing.T) {
	cases := []struct {
		name, why string
		bodies    []string
		want      string
		reason    string
	}{
		{"no bodies", "nothing to infer from", nil, "no bodies", ""},
		{"duplicate member", "strict JSON refuses a name spelled twice", []string{`{}`, `{"a":1,"a":2}`}, "body 1", protocol.ReasonDuplicateName},
		{"trailing data", "strict JSON refuses data after the document", []string{`{} {}`}, "body 0", protocol.ReasonTrailingData},
		{"not JSON", "an HTML error page is no body to infer from", []string{`[]`, `[]`, `<html>`}, "body 2", protocol.ReasonSyntax},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Infer(bytesOf(c.bodies), InferOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Infer: %v, want an error naming %q (%s)", err, c.want, c.why)
			}
			if r, ok := judge.AsRejection(err); c.reason != "" && (!ok || r.Reason != c.reason) {
				t.Errorf("Infer: %v, want a rejection of reason %s (%s)", err, c.reason, c.why)
			}
		})
	}
}

func TestInferGolden(t *testing.T) {
	var bodies []string
	for _, n := range reviewOrder {
		bodies = append(bodies, reviewBodies[n])
	}
	for _, enum := range []bool{false, true} {
		name := "reviews"
		if enum {
			name = "reviews_enum"
		}
		t.Run(name, func(t *testing.T) {
			schema, infs, err := Infer(bytesOf(bodies), InferOptions{Enum: enum})
			if err != nil {
				t.Fatal(err)
			}
			checkSchema(t, schema, bodies)
			golden(t, name+".schema.json", string(schema)+"\n")
			golden(t, name+".inferences.txt", listInferences(infs))
		})
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func TestSortInferences(t *testing.T) {
	got := sortInferences([]Inference{{"/b", "y"}, {"", "z"}, {"/b", "x"}, {"/a", "q"}, {"/b", "y"}})
	want := []Inference{{"", "z"}, {"/a", "q"}, {"/b", "x"}, {"/b", "y"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
