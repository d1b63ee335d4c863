package corpus

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/internal/judge"
)

// plan is one tool version made ready to evaluate answers: the binding
// checked, its schemas compiled.
type plan struct {
	tool     *Tool
	version  Version
	upstream *compiledSchema
	contract *compiledSchema
	// keys are the key=value lines (FormatKeyValue only).
	keys []judge.KeySpec
}

// plan checks the binding of version of t and compiles its schemas; every
// error is a broken corpus (or args missing an argument the binding needs).
func (c *Corpus) plan(t *Tool, version string, args map[string]string) (*plan, error) {
	v, ok := t.Versions[version]
	if !ok {
		return nil, fmt.Errorf("no upstream version %q (have %v)", version, t.VersionNames())
	}
	if err := checkBinding(t, v, args); err != nil {
		return nil, err
	}
	if v.Schema == "" {
		return nil, fmt.Errorf("version %s names no schema", version)
	}
	p := &plan{tool: t, version: v}
	var err error
	if p.upstream, err = c.schema(path.Join(t.Name, v.Schema)); err != nil {
		return nil, err
	}
	if p.contract, err = c.schema(path.Join(t.Name, "contract.json")); err != nil {
		return nil, err
	}
	if t.Format == FormatKeyValue {
		if p.keys, err = keySpecs(t.KeysFor(v), p.upstream.doc); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkBinding checks what Evaluate needs of a tool and version: a content
// type, a known format, well-formed pointers and the arguments it binds.
func checkBinding(t *Tool, v Version, args map[string]string) error {
	switch {
	case t.ContentType == "":
		return fmt.Errorf("no content_type")
	case t.Format == FormatKeyValue && len(t.KeysFor(v)) == 0:
		return fmt.Errorf("format %s without keys", FormatKeyValue)
	case t.Format != FormatJSON && t.Format != FormatKeyValue:
		return fmt.Errorf("format %q is not %s or %s", t.Format, FormatJSON, FormatKeyValue)
	}
	for field, ptr := range v.Project {
		if !judge.ValidPointer(ptr) {
			return fmt.Errorf("project %s: %q is not a JSON pointer", field, ptr)
		}
		if strings.HasPrefix(field, "/") && (!judge.ValidPointer(field) || field == "/") {
			return fmt.Errorf("project: the nested field %q is not a JSON pointer to a member", field)
		}
	}
	for _, field := range v.Optional {
		if _, ok := v.Project[field]; !ok {
			return fmt.Errorf("optional: %q is not a projected field", field)
		}
	}
	for _, field := range v.Integers {
		if _, ok := v.Project[field]; !ok {
			return fmt.Errorf("integers: %q is not a projected field", field)
		}
	}
	for ptr, name := range v.Bind {
		if !judge.ValidPointer(ptr) {
			return fmt.Errorf("bind: %q is not a JSON pointer", ptr)
		}
		if _, ok := args[name]; !ok {
			return fmt.Errorf("bind %s: no argument %q", ptr, name)
		}
	}
	if i := slices.IndexFunc(v.Fresh, func(p string) bool { return !judge.ValidPointer(p) }); i >= 0 {
		return fmt.Errorf("fresh: %q is not a JSON pointer", v.Fresh[i])
	}
	return nil
}

// anyValue is the pattern of a key whose schema property has none.
const anyValue = `^.*$`

// keySpecs returns the key=value lines of keys, each value's pattern taken
// from the schema property of the same name, or anyValue.
func keySpecs(keys []string, schemaDoc any) ([]judge.KeySpec, error) {
	specs := make([]judge.KeySpec, 0, len(keys))
	for _, k := range keys {
		pattern := anyValue
		if p, ok := judge.Lookup(schemaDoc, "/properties/"+judge.EscapePointerToken(k)+"/pattern"); ok {
			if s, ok := p.(string); ok && s != "" {
				pattern = s
			}
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("pattern of key %s: %w", k, err)
		}
		specs = append(specs, judge.KeySpec{Name: k, Pattern: re})
	}
	return specs, nil
}
