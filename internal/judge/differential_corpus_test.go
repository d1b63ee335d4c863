package judge_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"path"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/variant"
)

// table returns the whole differential table: the static inputs, the
// truncations, and the built-in corpus (its schemas and every variant).
func table(tb testing.TB) []probe {
	tb.Helper()
	var probes []probe
	for _, group := range [][]probe{
		jsonProbes(), truncationProbes(), contentTypeProbes(), keyValueProbes(), pointerProbes(),
		timestampProbes(), equalProbes(), schemaProbes(), corpusProbes(tb),
	} {
		probes = append(probes, group...)
	}
	return probes
}

// corpusNow is the clock variants are rendered and judged against.
var corpusNow = time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)

// corpusTool is what the probes need of one tool of the corpus.
type corpusTool struct {
	tool    *corpus.Tool
	schemas map[string][]byte    // upstream schema by version
	keys    map[string][]keySpec // key=value lines by version (key_value tools)
}

// corpusProbes returns, for the built-in corpus, one probe per schema
// (Closed and Compile) and one per generated variant (names
// "corpus/..." and "variant/<variant ID>").
func corpusProbes(tb testing.TB) []probe {
	tb.Helper()
	c := corpus.New(toolcert.Fixtures())
	names, err := c.Tools()
	if err != nil {
		tb.Fatal(err)
	}
	tools := map[string]*corpusTool{}
	var probes []probe
	for _, name := range names {
		ct := loadTool(tb, c, name)
		tools[name] = ct
		probes = append(probes, schemaFileProbes(tb, c, ct)...)
	}
	vs, err := variant.Generate(c, variant.Options{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	vars := corpus.Vars{Now: corpusNow, Freshness: protocol.DefaultFreshness, Skew: protocol.DefaultFutureSkew,
		Canary: func(name, where string) string { return "CANARY" + name }}
	for _, v := range vs {
		body, err := corpus.Render(v.Body, v.ID, vars)
		if err != nil {
			tb.Fatalf("render %s: %v", v.ID, err)
		}
		probes = append(probes, variantProbe(v, body, tools[v.Tool]))
	}
	return probes
}

// loadTool reads a tool's binding, its upstream schemas and key specs.
func loadTool(tb testing.TB, c *corpus.Corpus, name string) *corpusTool {
	tb.Helper()
	t, err := c.Tool(name)
	if err != nil {
		tb.Fatal(err)
	}
	ct := &corpusTool{tool: t, schemas: map[string][]byte{}, keys: map[string][]keySpec{}}
	for _, version := range t.VersionNames() {
		raw, err := c.UpstreamSchema(t, version)
		if err != nil {
			tb.Fatal(err)
		}
		ct.schemas[version] = raw
		if t.Format == corpus.FormatKeyValue {
			ct.keys[version] = keySpecs(tb, t.KeysFor(t.Versions[version]), raw)
		}
	}
	return ct
}

// keySpecs builds the key=value lines of keys as the corpus does: each
// value's pattern is the schema property's, or any value.
func keySpecs(tb testing.TB, keys []string, schema []byte) []keySpec {
	tb.Helper()
	var doc struct {
		Properties map[string]struct {
			Pattern string `json:"pattern"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &doc); err != nil {
		tb.Fatal(err)
	}
	specs := make([]keySpec, len(keys))
	for i, k := range keys {
		pattern := `^.*$`
		if p := doc.Properties[k].Pattern; p != "" {
			pattern = p
		}
		specs[i] = keySpec{name: k, pattern: regexp.MustCompile(pattern)}
	}
	return specs
}

// schemaFileProbes returns Closed and Compile probes for a tool's
// argument schema, its contract and every upstream schema.
func schemaFileProbes(tb testing.TB, c *corpus.Corpus, ct *corpusTool) []probe {
	tb.Helper()
	name := ct.tool.Name
	contract, err := c.Contract(name)
	if err != nil {
		tb.Fatal(err)
	}
	files := map[string][]byte{"arguments": ct.tool.Arguments, "contract": contract}
	for version, raw := range ct.schemas {
		files["upstream@"+version] = raw
	}
	var probes []probe
	for _, file := range slices.Sorted(maps.Keys(files)) {
		where := path.Join("corpus", name, file)
		probes = append(probes, closedProbe(where+"/closed", files[file]), compileProbe(where+"/compile", files[file], nil))
	}
	return probes
}

// variantVerdict is what an implementation makes of one variant: every
// check the harness runs on an upstream answer, each on its own.
type variantVerdict struct {
	ContentType verdict
	Parse       verdict
	Schema      verdict
	Bind        []verdict
	Fresh       []verdict
}

// all returns every verdict of v.
func (v variantVerdict) all() []verdict {
	return append(append([]verdict{v.ContentType, v.Parse, v.Schema}, v.Bind...), v.Fresh...)
}

// variantProbe runs a rendered variant through the checks of its tool.
func variantProbe(v variant.Variant, body []byte, ct *corpusTool) probe {
	return probe{name: "variant/" + v.ID, run: func(m *impl) any {
		h := http.Header{}
		if v.ContentType != "" {
			h.Set("Content-Type", v.ContentType)
		}
		out := variantVerdict{ContentType: m.verdictOf(nil, m.contentType(h, ct.tool.ContentType))}
		doc, err := parseBody(m, ct, v.Version, body)
		out.Parse = m.verdictOf(doc, err)
		version, known := ct.tool.Versions[v.Version]
		if err != nil || !known {
			return out
		}
		validate, err := m.schema(v.Tool+"@"+v.Version, ct.schemas[v.Version])
		if err != nil {
			out.Schema = m.verdictOf(nil, err)
			return out
		}
		out.Schema = m.verdictOf(nil, validate(doc))
		for _, ptr := range slices.Sorted(maps.Keys(version.Bind)) {
			got, _ := m.lookup(doc, ptr)
			out.Bind = append(out.Bind, m.verdictOf(nil, m.equal(ptr, got, v.Arguments[version.Bind[ptr]])))
		}
		for _, ptr := range version.Fresh {
			got, _ := m.lookup(doc, ptr)
			s, _ := got.(string)
			out.Fresh = append(out.Fresh, m.verdictOf(nil, m.fresh(s, corpusNow, protocol.DefaultFreshness, protocol.DefaultFutureSkew)))
		}
		return out
	}}
}

// parseBody parses a variant's body as its tool's format: JSON, or the
// key=value lines as an object of strings.
func parseBody(m *impl, ct *corpusTool, version string, body []byte) (any, error) {
	if ct.tool.Format == corpus.FormatJSON {
		return m.parseJSON(body, 0)
	}
	kv, err := m.keyValues(body, ct.keys[version])
	if err != nil {
		return nil, err
	}
	doc := make(map[string]any, len(kv))
	for k, v := range kv {
		doc[k] = v
	}
	return doc, nil
}
