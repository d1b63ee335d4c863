package variant

import (
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/toolcert/toolcert/corpus"
)

// example is one accepted example in one upstream version, with what the
// operators need to know about it.
type example struct {
	opts        Options
	tool        *corpus.Tool
	acc         corpus.Accepted
	version     string
	ver         corpus.Version
	name        string // the example as IDs name it
	first       bool   // the tool's first example and version
	raw         []byte // the template as stored
	contentType string
	schema      *rule
	tree        *node  // FormatJSON
	kv          *kvDoc // FormatKeyValue
	op          string // the operator run is applying now
}

// draft is one operator's output before the generator names it.
type draft struct {
	field       string // JSON pointer or key
	tag         string
	note        string
	status      int     // 0: 200
	contentType *string // nil: the tool's
	body        []byte
	expect      Expect
	mark        string // where the mark is (Variant.Mark); "" to find it in body
}

// newExample loads what the operators need for one example and version.
func newExample(c *corpus.Corpus, t *corpus.Tool, acc corpus.Accepted, version string, opts Options) (*example, error) {
	x := &example{opts: opts, tool: t, acc: acc, version: version, name: acc.ID}
	var ok bool
	if x.ver, ok = t.Versions[version]; !ok {
		return nil, fmt.Errorf("example %s: no upstream version %q", acc.ID, version)
	}
	if len(acc.Versions) > 1 {
		x.name += "@" + version
	}
	x.contentType = t.ContentType
	if x.contentType == "" {
		x.contentType = corpus.ContentType(acc.Body)
	}
	var err error
	if x.raw, err = c.Body(t.Name, acc.Body); err != nil {
		return nil, fmt.Errorf("example %s: %w", acc.ID, err)
	}
	schema, err := c.UpstreamSchema(t, version)
	if err != nil {
		return nil, fmt.Errorf("example %s: %w", acc.ID, err)
	}
	if x.schema, err = parseRule(schema); err != nil {
		return nil, fmt.Errorf("example %s: %w", acc.ID, err)
	}
	if t.Format == corpus.FormatKeyValue {
		x.kv, err = parseKV(x.raw)
	} else {
		x.tree, err = parseTree(x.raw)
	}
	if err != nil {
		return nil, fmt.Errorf("example %s: %w", acc.ID, err)
	}
	return x, nil
}

// bound returns the argument the value at ptr binds to, if any.
func (x *example) bound(ptr string) (string, bool) {
	arg, ok := x.ver.Bind[ptr]
	return arg, ok
}

// fresh reports whether the value at ptr is checked for freshness.
func (x *example) fresh(ptr string) bool { return slices.Contains(x.ver.Fresh, ptr) }

// projected reports whether the value at ptr, a value inside it, or one
// it is inside (a list projected whole) reaches the agent.
func (x *example) projected(ptr string) bool {
	for _, p := range x.ver.Project {
		if p == ptr || inside(p, ptr) || inside(ptr, p) {
			return true
		}
	}
	return false
}

// inside reports whether pointer inner is inside pointer outer.
func inside(inner, outer string) bool {
	return len(inner) > len(outer) && inner[:len(outer)] == outer && inner[len(outer)] == '/'
}

// leafVerdict judges a new literal at ptr the way the pipeline would: the
// schema first, then binding and freshness. It returns the expectation and
// false when the generator cannot tell, or when the value would be
// accepted and change the agent's data.
func (x *example) leafVerdict(ptr, lit string) (Expect, bool) {
	switch x.schema.at(ptr).judge(lit) {
	case refuses:
		return schemaFault(), true
	case unsure:
		return Expect{}, false
	}
	if _, ok := x.bound(ptr); ok {
		return semanticFault("binding_mismatch"), true
	}
	if x.fresh(ptr) || x.projected(ptr) {
		return Expect{}, false
	}
	return x.accepted(), true
}

// rng returns the seeded source of one operator's choices on this
// example: it depends on the seed, the tool, the example, the version and
// the operator only, so adding an operator moves no other choice.
func (x *example) rng(op string) *splitmix {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%s", x.opts.Seed, x.tool.Name, x.acc.ID, x.version, op)
	return &splitmix{state: h.Sum64()}
}

// splitmix is SplitMix64: a tiny, fully specified generator, so seeded
// choices do not depend on the Go release.
type splitmix struct{ state uint64 }

// next returns the next 64 random bits.
func (s *splitmix) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (s *splitmix) intn(n int) int { return int(s.next() % uint64(n)) }
