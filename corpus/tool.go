package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Body formats a tool's upstream can answer in.
const (
	// FormatJSON is one strict JSON document.
	FormatJSON = "json"
	// FormatKeyValue is ordered key=value lines, each ending in "\n".
	FormatKeyValue = "key_value"
)

// Tool is one tool's binding, tool.json in its folder: how the agent's
// call becomes an upstream request and how the upstream's answer becomes
// the agent's data.
type Tool struct {
	// Name is the tool's name, as in POST /v1/tools/{tool}/invoke.
	Name string `json:"tool"`
	// Description says what the tool is for, for a person.
	Description string `json:"description,omitempty"`
	// Request is the upstream request; {name} in the path is the argument.
	Request Request `json:"request"`
	// Arguments is the closed JSON Schema of the agent's arguments.
	Arguments json.RawMessage `json:"arguments"`
	// Format is FormatJSON or FormatKeyValue.
	Format string `json:"format"`
	// ContentType is the media type the upstream answers with.
	ContentType string `json:"content_type"`
	// Keys are the key=value keys in order (FormatKeyValue only).
	Keys []string `json:"keys,omitempty"`
	// Versions holds, per upstream version the corpus knows, the shape of
	// the answer and how it maps onto the agent's data.
	Versions map[string]Version `json:"versions"`
	// VersionHeader is the response header the upstream names its version
	// in ("" when it does not).
	VersionHeader string `json:"version_header,omitempty"`
	// Errors are the upstream's own error answers, per status or range
	// (ErrorAnswer): the generated status variants and a status reject
	// without a body are served in that shape. None: toolcert's own
	// {"error": {"status": ..., "message": ...}}.
	Errors []ErrorAnswer `json:"errors,omitempty"`
	// Decide lists what an import or a recording left for the corpus's
	// owner to decide; each entry goes once decided. A run refuses a
	// corpus with open decisions unless told otherwise.
	Decide []Decision `json:"decide,omitempty"`
}

// Decision is one choice left to the corpus's owner: the projection, a
// binding, a freshness member, an inference from recorded answers.
type Decision struct {
	// File is the file the decision is about, relative to the tool's
	// folder ("tool.json", "upstream/v1.schema.json").
	File string `json:"file"`
	// Pointer is the JSON pointer inside File, "" for the whole file.
	Pointer string `json:"pointer,omitempty"`
	// Decide says, for a person, what is to be decided and what the
	// import or recording chose meanwhile.
	Decide string `json:"decide"`
}

// Version is one upstream version of a tool's answer.
type Version struct {
	// Schema is the upstream's response schema file, relative to the
	// tool's folder: closed, Draft 2020-12. For FormatKeyValue it
	// describes the object of the parsed keys, every value a string.
	Schema string `json:"schema"`
	// Project maps each agent data field to the JSON pointer of the
	// upstream field it is taken from. A field written as a JSON pointer
	// ("/user/login") is nested: the agent's data holds it at that pointer,
	// inside objects made for it.
	Project map[string]string `json:"project"`
	// Optional lists the projected fields (as Project writes them) an
	// answer may lack: absent upstream, the field is absent from the
	// agent's data, and a target may also show it as null. Every other
	// projected field must be there.
	Optional []string `json:"optional,omitempty"`
	// Integers lists the agent data fields that the adapter turns from
	// text into integers (FormatKeyValue).
	Integers []string `json:"integers,omitempty"`
	// Bind maps the JSON pointer of an upstream field to the argument it
	// must equal.
	Bind map[string]string `json:"bind"`
	// Fresh lists the JSON pointers of timestamps checked for freshness.
	Fresh []string `json:"fresh,omitempty"`
	// Keys, for FormatKeyValue, replaces the tool's keys in this version.
	Keys []string `json:"keys,omitempty"`
}

// KeysFor returns the key=value keys of version v: its own, or the tool's.
func (t *Tool) KeysFor(v Version) []string {
	if len(v.Keys) > 0 {
		return v.Keys
	}
	return t.Keys
}

// Request is an upstream request line with {argument} placeholders.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Query names the query parameters the route may carry (a page size
	// the adapter sets itself, a search term): a request of the tool with
	// another one, or with a query when Query is empty, leaves the route.
	Query []string `json:"query,omitempty"`
}

// URLPath returns the request path with each {name} replaced by the
// argument's value.
func (r Request) URLPath(args map[string]string) string {
	p := r.Path
	for name, v := range args {
		p = strings.ReplaceAll(p, "{"+name+"}", v)
	}
	return p
}

// VersionNames returns the tool's upstream versions, sorted.
func (t *Tool) VersionNames() []string {
	names := make([]string, 0, len(t.Versions))
	for v := range t.Versions {
		names = append(names, v)
	}
	sort.Strings(names)
	return names
}

// Tools returns the names of the tools in the corpus: every folder that
// holds a tool.json, sorted.
func (c *Corpus) Tools() ([]string, error) {
	entries, err := fs.ReadDir(c.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("list corpus: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(c.fsys, path.Join(e.Name(), "tool.json")); err == nil {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Tool loads the binding of the tool in folder name.
func (c *Corpus) Tool(name string) (*Tool, error) {
	file := path.Join(name, "tool.json")
	var t Tool
	if err := c.decode(file, &t); err != nil {
		return nil, err
	}
	if t.Name != name {
		return nil, fmt.Errorf("%s: /tool is %q, want the folder's name %q", file, t.Name, name)
	}
	return &t, nil
}

// UpstreamSchema returns the raw schema of one upstream version of tool.
func (c *Corpus) UpstreamSchema(t *Tool, version string) ([]byte, error) {
	v, ok := t.Versions[version]
	if !ok {
		return nil, fmt.Errorf("%s/tool.json: no upstream version %q (have %v)", t.Name, version, t.VersionNames())
	}
	return c.Fixture(path.Join(t.Name, v.Schema))
}

// decode reads a JSON file of the corpus, refusing unknown fields so a
// typo in a hand-written file is an error, not a silent default.
func (c *Corpus) decode(file string, v any) error {
	b, err := fs.ReadFile(c.fsys, file)
	if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}
