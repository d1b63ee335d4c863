package runner

import (
	"bytes"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/toolcert/toolcert/reports"
)

// gherkinSources reads a run's feature files again to give the result
// model what godog's pickles leave out: the lines of scenarios, steps and
// tags, and each feature's title, description and tags. godog's hooks see
// pickles, whose AST node IDs point into Gherkin documents they never
// show; the sources parse each file once, with the same parser, and match
// a pickle to their own compilation of it by its location. It is safe for
// concurrent use; a nil *gherkinSources knows nothing.
type gherkinSources struct {
	fsys  fs.FS
	mu    sync.Mutex
	files map[string]*gherkinFile // by URI; nil for a file that did not parse
}

// gherkinFile is one parsed feature file: its document, its pickles, and
// the line of every AST node by ID.
type gherkinFile struct {
	doc       *messages.GherkinDocument
	pickles   []*messages.Pickle
	lines     map[string]int
	scenarios map[string]*messages.Scenario
}

// scenarioSource is what the sources say of one pickle: the line of its
// "Scenario:" keyword, its Gherkin details, and the line of each of its
// steps by pickle step ID.
type scenarioSource struct {
	line    int
	gherkin *reports.Gherkin
	steps   map[string]int
}

// newGherkinSources returns the sources of the feature files in fsys.
func newGherkinSources(fsys fs.FS) *gherkinSources {
	return &gherkinSources{fsys: fsys, files: map[string]*gherkinFile{}}
}

// of returns what the feature file says of p, or nothing when the file
// cannot be read or parsed again or holds no pickle at p's location.
func (s *gherkinSources) of(p *messages.Pickle) scenarioSource {
	if s == nil || p == nil {
		return scenarioSource{}
	}
	f := s.file(featureURI(p.Uri))
	if f == nil {
		return scenarioSource{}
	}
	q := f.match(p)
	if q == nil {
		return scenarioSource{}
	}
	sc := f.scenarios[q.AstNodeIds[0]]
	src := scenarioSource{line: int(sc.Location.Line), steps: map[string]int{}}
	for i, st := range p.Steps {
		src.steps[st.Id] = f.lines[q.Steps[i].AstNodeIds[0]]
	}
	src.gherkin = f.gherkinOf(p, q, sc)
	return src
}

// file returns the parsed feature file at uri, parsing it the first time.
func (s *gherkinSources) file(uri string) *gherkinFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[uri]
	if !ok {
		f = parseFeature(s.fsys, uri)
		s.files[uri] = f
	}
	return f
}

// featureURI is a pickle's URI without the ":LINE" suffix godog adds when a
// path names one scenario by its line.
func featureURI(uri string) string {
	if i := strings.LastIndexByte(uri, ':'); i >= 0 {
		if _, err := strconv.Atoi(uri[i+1:]); err == nil {
			return uri[:i]
		}
	}
	return uri
}

// parseFeature parses the feature file at uri as godog does (default
// dialect, IDs from one counter), or returns nil.
func parseFeature(fsys fs.FS, uri string) *gherkinFile {
	if fsys == nil {
		return nil
	}
	raw, err := fs.ReadFile(fsys, uri)
	if err != nil {
		return nil
	}
	newID := (&messages.Incrementing{}).NewId
	doc, err := gherkin.ParseGherkinDocumentForLanguage(bytes.NewReader(raw), gherkin.DefaultDialect, newID)
	if err != nil || doc.Feature == nil {
		return nil
	}
	f := &gherkinFile{doc: doc, pickles: gherkin.Pickles(*doc, uri, newID), lines: map[string]int{},
		scenarios: map[string]*messages.Scenario{}}
	f.index(doc.Feature)
	return f
}

// match returns the file's own pickle that p was compiled from: the one at
// the same location (a scenario's, or an example row's), of the same name
// and shape.
func (f *gherkinFile) match(p *messages.Pickle) *messages.Pickle {
	if p.Location == nil {
		return nil
	}
	for _, q := range f.pickles {
		if q.Location != nil && q.Location.Line == p.Location.Line && q.Name == p.Name &&
			len(q.Steps) == len(p.Steps) && len(q.Tags) == len(p.Tags) && len(q.AstNodeIds) > 0 &&
			f.scenarios[q.AstNodeIds[0]] != nil {
			return q
		}
	}
	return nil
}

// gherkinOf is the model's Gherkin details of pickle p (the file's q),
// compiled from scenario sc.
func (f *gherkinFile) gherkinOf(p, q *messages.Pickle, sc *messages.Scenario) *reports.Gherkin {
	g := &reports.Gherkin{Keyword: sc.Keyword, Description: sc.Description}
	if n := len(q.AstNodeIds); n > 1 {
		g.Row = f.lines[q.AstNodeIds[n-1]]
	}
	for i, t := range p.Tags {
		g.Tags = append(g.Tags, reports.Tag{Name: t.Name, Line: f.lines[q.Tags[i].AstNodeId]})
	}
	ft := f.doc.Feature
	g.Feature = reports.GherkinFeature{Keyword: ft.Keyword, Name: ft.Name, Description: ft.Description,
		Line: int(ft.Location.Line), Tags: tagsOf(ft.Tags)}
	return g
}

// index records the line of every node of the feature by ID, and every
// scenario by ID.
func (f *gherkinFile) index(ft *messages.Feature) {
	f.tags(ft.Tags)
	for _, c := range ft.Children {
		f.background(c.Background)
		f.scenario(c.Scenario)
		if c.Rule != nil {
			f.lines[c.Rule.Id] = int(c.Rule.Location.Line)
			f.tags(c.Rule.Tags)
			for _, rc := range c.Rule.Children {
				f.background(rc.Background)
				f.scenario(rc.Scenario)
			}
		}
	}
}

func (f *gherkinFile) background(b *messages.Background) {
	if b == nil {
		return
	}
	f.lines[b.Id] = int(b.Location.Line)
	f.steps(b.Steps)
}

func (f *gherkinFile) scenario(sc *messages.Scenario) {
	if sc == nil {
		return
	}
	f.scenarios[sc.Id] = sc
	f.lines[sc.Id] = int(sc.Location.Line)
	f.tags(sc.Tags)
	f.steps(sc.Steps)
	for _, ex := range sc.Examples {
		f.lines[ex.Id] = int(ex.Location.Line)
		f.tags(ex.Tags)
		for _, row := range ex.TableBody {
			f.lines[row.Id] = int(row.Location.Line)
		}
	}
}

func (f *gherkinFile) steps(steps []*messages.Step) {
	for _, st := range steps {
		f.lines[st.Id] = int(st.Location.Line)
	}
}

func (f *gherkinFile) tags(tags []*messages.Tag) {
	for _, t := range tags {
		f.lines[t.Id] = int(t.Location.Line)
	}
}

// tagsOf returns tags with their lines and columns.
func tagsOf(tags []*messages.Tag) []reports.Tag {
	var out []reports.Tag
	for _, t := range tags {
		out = append(out, reports.Tag{Name: t.Name, Line: int(t.Location.Line), Column: int(t.Location.Column)})
	}
	return out
}
