package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
)

// folder is a tool folder being built: its files by path, and the
// decisions left to the owner.
type folder struct {
	t       Tool
	version string
	doc     schemaDoc
	proj    *projection
	files   map[string][]byte
	decide  []corpus.Decision
	args    map[string]string
	cases   *object
	// mayLack are the kept fields an answer may lack: tool.json lists them
	// as optional.
	mayLack []field
	// errorAnswers are tool.json's "errors", in the order the source gave.
	errorAnswers []any
}

// build makes every file of t's folder; it returns them, the decisions
// left and every note (the source's and its own).
func build(t Tool, opts Options) (map[string][]byte, []corpus.Decision, []Note, error) {
	if len(t.Examples) == 0 {
		return nil, nil, nil, errors.New("no accepted answer: nothing shows the tool can succeed, and the generator has nothing to start from")
	}
	f := &folder{t: t, version: t.Version, files: map[string][]byte{}}
	if f.version == "" {
		f.version = "v1"
	}
	steps := []func(Options) error{f.schema, f.arguments, f.examples, f.errors, f.tool}
	for _, step := range steps {
		if err := step(opts); err != nil {
			return nil, nil, nil, err
		}
	}
	f.files["cases.json"] = encodeRendered(f.cases)
	f.files["NOTES.md"] = notes(f.t, f.decide)
	return f.files, f.decide, f.t.Notes, nil
}

// schemaFile is the vendor schema's file of the version.
func (f *folder) schemaFile() string { return "upstream/" + f.version + ".schema.json" }

// schema reads the vendor schema, plans the projection, narrows a list
// kept element by element, and writes the upstream schema and the
// contract.
func (f *folder) schema(Options) error {
	v, err := parse(f.t.Schema)
	if err != nil {
		return fmt.Errorf("vendor schema: %w", err)
	}
	root, ok := v.(*object)
	if !ok {
		return errors.New("vendor schema: not an object")
	}
	f.doc = schemaDoc{root: root}
	if f.proj, err = planKeep(f.t.Keep, f.dataName()); err != nil {
		return err
	}
	if f.proj.listKept {
		if err := f.narrowList(); err != nil {
			return err
		}
	}
	data, mayLack, err := f.doc.dataSchema(f.proj)
	if err != nil {
		return fmt.Errorf("keep: %w", err)
	}
	f.mayLack = mayLack
	f.decideMayLack(mayLack)
	defs, _ := root.get("$defs")
	f.files["contract.json"] = encodeFile(contract(f.t.Name, data, defs))
	if _, ok := root.get("title"); !ok {
		root.set("title", fmt.Sprintf("%s upstream body, %s (%s %s)", f.t.Name, f.version, f.t.Method, f.t.Path))
	}
	f.files[f.schemaFile()] = encodeFile(root)
	f.decideProjection()
	return nil
}

// dataName is the agent's field for a pointer without a name: the
// owner's, or the route's last literal segment.
func (f *folder) dataName() string {
	if f.t.DataName != "" {
		return f.t.DataName
	}
	segs := strings.Split(strings.Trim(f.t.Path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if s := fieldName([]string{segs[i]}, ""); s != "" && !strings.HasPrefix(segs[i], "{") {
			return s
		}
	}
	return "data"
}

// narrowList narrows the element schema of the list kept element by
// element to what is kept of each, and says so.
func (f *folder) narrowList() error {
	list, _, err := f.doc.walk(f.proj.list)
	if err != nil {
		return fmt.Errorf("keep: %w", err)
	}
	items := f.doc.items(list)
	if items == nil {
		return fmt.Errorf("keep: the schema at %s is not a list of described elements", joinPointer(f.proj.list))
	}
	narrowed, err := f.doc.narrowSchema(items, f.proj.tails, append(slices.Clone(f.proj.list), "*"))
	if err != nil {
		return fmt.Errorf("keep: %w", err)
	}
	f.doc.resolve(list).set("items", narrowed)
	var kept []string
	for _, tail := range f.proj.tails {
		kept = append(kept, joinPointer(tail))
	}
	at := "/properties"
	for _, tok := range f.proj.list {
		at += "/" + escapeToken(tok) + "/properties"
	}
	f.decide = append(f.decide, corpus.Decision{File: f.schemaFile(), Pointer: strings.TrimSuffix(at, "/properties") + "/items",
		Decide: fmt.Sprintf("the corpus projects no element of a list, so each element of %s is narrowed to what the agent keeps (%s) and the accepted answers with it: an adapter pinned to this schema refuses the upstream's real answers, which carry the other members; keep it so, or keep whole elements (--keep %s/*)",
			pointerOrRoot(f.proj.list), strings.Join(kept, ", "), joinPointer(f.proj.list))})
	return nil
}

// pointerOrRoot names a pointer in a sentence.
func pointerOrRoot(toks []string) string {
	if len(toks) == 0 {
		return "the answer"
	}
	return joinPointer(toks)
}

// decideMayLack tells the owner of each kept member an answer may lack
// (optional, or under a member that may be null) that it is optional.
func (f *folder) decideMayLack(fields []field) {
	for _, fl := range fields {
		f.decide = append(f.decide, corpus.Decision{File: "tool.json", Pointer: "/versions/" + escapeToken(f.version) + "/optional",
			Decide: fmt.Sprintf("%s may be missing from an answer (it, or a member on its way, is optional or may be null in the vendor schema): the field %s is listed as optional, so an answer without it is accepted and the agent's data lacks it (a target may also show null); delete it from optional, and require it in contract.json, if such answers must fail", pointerOrRoot(fl.pointer), fl.name)})
	}
}

// decideProjection asks the owner to review the projection.
func (f *folder) decideProjection() {
	var fields []string
	for _, fl := range f.proj.fields {
		fields = append(fields, fmt.Sprintf("%s from %s", fl.name, pointerOrRoot(fl.pointer)))
	}
	f.decide = append(f.decide, corpus.Decision{File: "tool.json", Pointer: "/versions/" + escapeToken(f.version) + "/project",
		Decide: "the agent keeps " + strings.Join(fields, ", ") + ": the contract (contract.json) lets through exactly these; make sure no free text the upstream's users write is among them, or that the agent may read it"})
}

// arguments writes nothing yet: it makes the argument schema and the
// example arguments.
func (f *folder) arguments(opts Options) error {
	schema, open, err := argumentSchema(f.t.Name, f.t.Arguments)
	if err != nil {
		return err
	}
	f.decide = append(f.decide, open...)
	props, _ := schema.get("properties")
	var madeUp []string
	f.args, madeUp = exampleArguments(f.t.Arguments, props.(*object), opts.Arguments)
	if len(madeUp) > 0 {
		f.decide = append(f.decide, corpus.Decision{File: "cases.json", Pointer: "/accepted",
			Decide: fmt.Sprintf("the examples' arguments %s were made up (%s): give the values each answer belongs to (--args), for any binding to hold", strings.Join(madeUp, ", "), argsText(f.args, madeUp))})
	}
	f.files["arguments"] = encodeFile(schema) // read back by tool()
	return nil
}

// argsText writes the values of names in args.
func argsText(args map[string]string, names []string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, n+"="+strconv.Quote(args[n]))
	}
	return strings.Join(parts, ", ")
}

// examples writes the accepted answers and their cases.
func (f *folder) examples(Options) error {
	f.cases = newObject("accepted", []any{}, "rejects", []any{})
	var accepted []any
	ids := map[string]bool{}
	for i, x := range f.t.Examples {
		id := uniqueID(x.ID, "example", i, ids)
		body, expect, err := f.example(x)
		if err != nil {
			return fmt.Errorf("example %s: %w", id, err)
		}
		if missing := f.missingField(expect); missing != "" {
			f.t.Notes = append(f.t.Notes, Note{Pointer: "example " + id, Message: "left out: it lacks the kept " + missing + ", and the corpus projects only what an answer holds"})
			continue
		}
		file := "accepted/" + id + ".json"
		f.files[file] = body
		args := x.Arguments
		if args == nil {
			args = f.args
		}
		accepted = append(accepted, newObject("id", id, "body", file, "versions", []any{f.version},
			"arguments", argsObject(args), "expect", expect))
	}
	if len(accepted) == 0 {
		return errors.New("no accepted answer holds every kept member: keep members the answers have")
	}
	f.cases.set("accepted", accepted)
	return nil
}

// missingField returns the pointer of the first kept field expect lacks,
// "" when it has them all.
func (f *folder) missingField(expect *object) string {
	for _, fl := range f.proj.fields {
		if _, ok := expect.get(fl.name); !ok {
			return pointerOrRoot(fl.pointer)
		}
	}
	return ""
}

// example returns the body to store of one accepted answer and the data
// the agent gets of it.
func (f *folder) example(x Example) ([]byte, *object, error) {
	v, err := parse(x.Body)
	if err != nil {
		return nil, nil, err
	}
	if f.proj.listKept {
		v = narrowAt(v, f.proj.list, f.proj.tails)
	}
	expect := newObject()
	for _, fl := range f.proj.fields {
		if kept, ok := valueAt(v, fl.pointer); ok {
			expect.set(fl.name, clone(kept))
		}
	}
	switch {
	case x.Raw && !f.proj.listKept && !bytes.Contains(x.Body, []byte("{{")):
		return x.Body, expect, nil
	case x.Raw:
		return encodeBody(v), expect, nil
	}
	marked := f.doc.markUnkept(v, f.doc.root, nil, f.proj, f.bindable(), map[string]int{})
	return encodeBody(marked), expect, nil
}

// tool writes tool.json, with every decision left.
func (f *folder) tool(Options) error {
	args, err := parse(f.files["arguments"])
	if err != nil {
		return err
	}
	delete(f.files, "arguments")
	project := newObject()
	for _, fl := range f.proj.fields {
		project.set(fl.name, joinPointer(fl.pointer))
	}
	f.decideBinding()
	version := newObject("schema", f.schemaFile(), "project", project)
	if len(f.t.Bind) > 0 {
		bind := newObject()
		for _, ptr := range sortedKeys(f.t.Bind) {
			bind.set(ptr, f.t.Bind[ptr])
		}
		version.set("bind", bind)
	}
	if len(f.mayLack) > 0 {
		var names []any
		for _, fl := range f.mayLack {
			names = append(names, fl.name)
		}
		version.set("optional", names)
	}
	t := newObject("tool", f.t.Name)
	if f.t.Description != "" {
		t.set("description", oneLine(f.t.Description))
	}
	request := newObject("method", strings.ToUpper(f.t.Method), "path", f.t.Path)
	var query []any
	for _, a := range f.t.Arguments {
		if a.In == "query" {
			query = append(query, a.Name)
		}
	}
	if len(query) > 0 {
		request.set("query", query)
	}
	t.set("request", request)
	t.set("arguments", args)
	t.set("format", corpus.FormatJSON)
	t.set("content_type", f.contentType())
	t.set("versions", newObject(f.version, version))
	if f.t.VersionHeader != "" {
		t.set("version_header", f.t.VersionHeader)
	}
	if len(f.errorAnswers) > 0 {
		t.set("errors", f.errorAnswers)
	}
	f.decide = append(f.decide, f.sourceDecisions()...)
	var decide []any
	for _, d := range f.decide {
		e := newObject("file", d.File)
		if d.Pointer != "" {
			e.set("pointer", d.Pointer)
		}
		e.set("decide", d.Decide)
		decide = append(decide, e)
	}
	t.set("decide", decide)
	f.files["tool.json"] = encodeFile(t)
	return nil
}

// sourceDecisions returns the source's decisions, but those about a
// member of the vendor schema that the projection narrowed away: what
// is no longer in the schema needs no decision.
func (f *folder) sourceDecisions() []corpus.Decision {
	var out []corpus.Decision
	for _, d := range f.t.Decide {
		if d.File == f.schemaFile() && d.Pointer != "" {
			toks, err := splitPointer(d.Pointer)
			if _, ok := valueAt(f.doc.root, toks); err != nil || !ok {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// contentType is the tool's media type, without parameters.
func (f *folder) contentType() string {
	ct, _, _ := strings.Cut(f.t.ContentType, ";")
	if ct = strings.TrimSpace(ct); ct == "" {
		return protocol.ContentTypeJSON
	}
	return ct
}

// bindable returns the pointers of the members named like an argument:
// the owner may bind them, so their values stay as the source gave them.
func (f *folder) bindable() map[string]bool {
	bound, _ := f.doc.candidates(f.argumentNames())
	out := map[string]bool{}
	for _, p := range bound {
		out[p] = true
	}
	return out
}

// argumentNames returns the names of the tool's arguments.
func (f *folder) argumentNames() []string {
	var names []string
	for _, a := range f.t.Arguments {
		names = append(names, a.Name)
	}
	return names
}

// decideBinding asks the owner which members bind to which arguments,
// and which timestamp is fresh, naming the candidates the schema has.
func (f *folder) decideBinding() {
	members, stamps := f.doc.candidates(f.argumentNames())
	bind := "which member of the answer must equal which argument (\"bind\": {pointer: argument}), so that an answer about another object than the one asked for fails"
	if len(members) > 0 {
		bind += "; members named like an argument: " + strings.Join(members, ", ")
	} else {
		bind += "; no member outside a list is named like an argument (a pointer cannot go through a list): bind none if the answer names no requested object"
	}
	fresh := "which timestamp, if any, must be within the freshness window (\"fresh\": [pointer]); the accepted answers' timestamps are then to be written {{now-30s}}"
	if len(stamps) > 0 {
		fresh += "; date-time members: " + strings.Join(stamps, ", ")
	} else {
		fresh += "; the answer has no date-time member outside a list"
	}
	v := "/versions/" + escapeToken(f.version)
	if len(f.t.Bind) == 0 {
		f.decide = append(f.decide, corpus.Decision{File: "tool.json", Pointer: v, Decide: bind})
	}
	f.decide = append(f.decide, corpus.Decision{File: "tool.json", Pointer: v, Decide: fresh})
}

// uniqueID returns id, or prefix and a number, unused in ids.
func uniqueID(id, prefix string, i int, ids map[string]bool) string {
	id = strings.Trim(nameChars.ReplaceAllString(id, "_"), "_")
	if id == "" {
		id = prefix
		if i > 0 {
			id += "_" + strconv.Itoa(i+1)
		}
	}
	for base, n := id, 2; ids[id]; n++ {
		id = base + "_" + strconv.Itoa(n)
	}
	ids[id] = true
	return id
}

// argsObject writes arguments as an object, sorted by name.
func argsObject(args map[string]string) *object {
	o := newObject()
	var names []string
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		o.set(k, args[k])
	}
	return o
}

// valueAt returns the value at toks of instance v.
func valueAt(v any, toks []string) (any, bool) {
	for _, t := range toks {
		switch x := v.(type) {
		case *object:
			var ok bool
			if v, ok = x.get(t); !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// narrowAt returns instance v with every element of the list at toks
// narrowed to tails.
func narrowAt(v any, toks []string, tails [][]string) any {
	if len(toks) == 0 {
		list, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = narrowValue(x, tails)
		}
		return out
	}
	o, ok := v.(*object)
	if !ok {
		return v
	}
	out := clone(o).(*object)
	if inner, ok := o.get(toks[0]); ok {
		out.set(toks[0], narrowAt(inner, toks[1:], tails))
	}
	return out
}

// sortedKeys returns m's keys, sorted.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
