package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

// view is how a tool shows the agent an upstream answer, as learnt from
// one call: where its result carries the data, and what of the answer it
// shows.
type view struct {
	// Result is the tool map's result: "structured" or "text".
	Result string
	// Prose says the text is not JSON: its values are looked for in it.
	Prose bool
	// Data is the JSON pointer of the agent's data in what Result names.
	Data string
	// DataName is the field the whole answer is kept as; "" splits an
	// object answer into one field per member.
	DataName string
	// Wrap is the tool map's wrap: the data is a bare list or value.
	Wrap string
	// AnswerAt is the pointer of the part of the answer the tool shows,
	// "" for the whole answer.
	AnswerAt string
	// Shown are the pointers of what the tool shows of the answer ("*"
	// every element).
	Shown []string
	// Adds are the pointers, within the agent's data, of members the tool
	// adds of its own.
	Adds []string
	// Hidden are the pointers, within the agent's data, of the members of
	// the answer the tool does not show.
	Hidden []string
	// Instants says a shown value is a timestamp.
	Instants bool
}

// errShowsNothing means the tool's answer holds nothing of the upstream's.
var errShowsNothing = errors.New("the tool's answer shows nothing of the upstream's answer")

// inferView learns how res shows the agent the upstream answer answer.
func inferView(answer []byte, res *mcp.CallToolResult) (view, error) {
	var a any
	if err := decode(answer, &a); err != nil {
		return view{}, fmt.Errorf("the upstream's answer: %w", err)
	}
	var out any
	v := view{Result: "structured"}
	switch {
	case res.StructuredContent != nil:
		b, err := json.Marshal(res.StructuredContent)
		if err == nil {
			err = decode(b, &out)
		}
		if err != nil {
			return view{}, fmt.Errorf("the structured content: %w", err)
		}
	default:
		text, ok := firstText(res)
		if !ok {
			return view{}, errors.New("the tool's answer has no structured content and no text")
		}
		v.Result = "text"
		t := strings.TrimSpace(text)
		if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") || decode([]byte(t), &out) != nil {
			return proseView(a, text)
		}
	}
	best := -1
	var at, from []string
	var shown, adds [][]string
	for _, part := range candidates(a, nil, 2) {
		if _, ok := part.v.(map[string]any); !ok && len(part.at) > 0 {
			if _, list := part.v.([]any); !list {
				continue // a scalar of the answer is no answer the tool shows
			}
		}
		for _, c := range candidates(out, nil, 3) {
			s, ad, ok := image(part.v, c.v)
			// the whole answer wins a tie over a part of it
			if !ok || leaves(s) <= best {
				continue
			}
			best, at, from, shown, adds = leaves(s), c.at, part.at, s, ad
		}
	}
	if best <= 0 {
		return view{}, errShowsNothing
	}
	if len(from) > 0 {
		// the tool shows a part of the answer (the data inside an
		// envelope such as {"status", "data"}): the agent keeps that part
		// as one field, which the tool map's wrap names
		v.AnswerAt = pointer(from)
		v.Data = pointer(at)
		v.Wrap = scaffold.FieldName(from)
		v.Shown = pointers(prefixAll(v.Wrap, shown))
		v.Adds = pointers(prefixAll(v.Wrap, adds))
		v.Hidden = pointers(hiddenOf(lookup(a, from), shown, v.Wrap, false))
		v.Instants = hasInstant(lookup(a, from), shown)
		return v, nil
	}
	_, object := a.(map[string]any)
	switch {
	case len(at) == 0 && object:
	case len(at) == 0:
		v.Wrap, v.DataName = "data", "data"
		adds = prefixAll("data", adds)
	default:
		v.Data = pointer(at[:len(at)-1])
		v.DataName = at[len(at)-1]
		adds = prefixAll(v.DataName, adds)
		parent, _ := lookup(out, at[:len(at)-1]).(map[string]any)
		for _, k := range sortedKeys(parent) {
			if k != v.DataName {
				adds = append(adds, []string{k})
			}
		}
	}
	v.Shown = pointers(shown)
	v.Adds = pointers(adds)
	v.Hidden = pointers(hiddenOf(a, shown, v.DataName, false))
	v.Instants = hasInstant(a, shown)
	return v, nil
}

// hiddenOf returns the members of answer a that shown does not name, nor
// any member inside them, as pointers within the agent's data: under
// dataName, when the whole answer is kept as one field; an array's
// elements by index when byIndex, else all as "*".
func hiddenOf(a any, shown [][]string, dataName string, byIndex bool) [][]string {
	names := map[string]bool{}
	for _, t := range shown {
		names[pointer(t)] = true
	}
	var out [][]string
	var walk func(v any, at []string)
	walk = func(v any, at []string) {
		p := pointer(at)
		if names[p] {
			return
		}
		inside := false
		for n := range names {
			if strings.HasPrefix(n, p+"/") || p == "" && n != "" {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, slices.Clone(at))
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], append(slices.Clone(at), k))
			}
		case []any:
			for i, e := range x {
				tok := "*"
				if byIndex {
					tok = strconv.Itoa(i)
				}
				walk(e, append(slices.Clone(at), tok))
			}
		}
	}
	walk(a, nil)
	if dataName != "" {
		out = prefixAll(dataName, out)
	}
	return out
}

// proseView is the view of a text that is not JSON: what of the answer
// appears in it as written.
func proseView(a any, text string) (view, error) {
	v := view{Result: "text", Prose: true}
	var shown [][]string
	walkLeaves(a, nil, func(at []string, leaf any) {
		s, ok := leafText(leaf)
		if ok && len(s) >= 3 && strings.Contains(text, s) {
			shown = append(shown, slices.Clone(at)) // by index: a list's elements may be tuples of unlike values
		}
	})
	if len(shown) == 0 {
		return view{}, errShowsNothing
	}
	if _, object := a.(map[string]any); !object {
		v.DataName = "data"
	}
	v.Shown = pointers(shown)
	v.Hidden = pointers(hiddenOf(a, shown, v.DataName, true))
	v.Instants = hasInstant(a, shown)
	return v, nil
}

// decode parses JSON with numbers kept as written.
func decode(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// firstText returns the text of a result's first text block.
func firstText(res *mcp.CallToolResult) (string, bool) {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text, true
		}
	}
	return "", false
}

// candidate is a value of the tool's answer that may be the upstream's
// answer as shown.
type candidate struct {
	at []string
	v  any
}

// candidates returns v and the members of its objects, depth levels down.
func candidates(v any, at []string, depth int) []candidate {
	out := []candidate{{at: at, v: v}}
	m, ok := v.(map[string]any)
	if !ok || depth == 0 {
		return out
	}
	for _, k := range sortedKeys(m) {
		out = append(out, candidates(m[k], append(slices.Clone(at), k), depth-1)...)
	}
	return out
}

// image reports whether o is answer a as a tool shows it: a's members, or
// some of them, each shown as a has it (an array element by element), and
// members of the tool's own. It returns what of a is shown and what o
// adds, each as tails ("*" every element).
func image(a, o any) (shown, adds [][]string, ok bool) {
	switch a := a.(type) {
	case map[string]any:
		om, isObject := o.(map[string]any)
		if !isObject || len(om) == 0 && len(a) > 0 {
			return nil, nil, false
		}
		matched := 0
		for _, k := range sortedKeys(om) {
			av, in := a[k]
			if !in {
				adds = append(adds, []string{k})
				continue
			}
			s, ad, ok := image(av, om[k])
			if !ok {
				adds = append(adds, []string{k})
				continue
			}
			matched++
			shown = append(shown, prefixAll(k, s)...)
			adds = append(adds, prefixAll(k, ad)...)
		}
		if matched == 0 && len(a) > 0 {
			return nil, nil, false
		}
		if len(a) == 0 {
			shown = [][]string{{}}
		}
		return shown, adds, true
	case []any:
		ol, isList := o.([]any)
		if !isList || len(ol) != len(a) {
			return nil, nil, false
		}
		if len(a) == 0 {
			return [][]string{{}}, nil, true
		}
		seen := map[string]bool{}
		for i := range a {
			s, ad, ok := image(a[i], ol[i])
			if !ok {
				return nil, nil, false
			}
			for _, t := range prefixAll("*", s) {
				if p := pointer(t); !seen["s"+p] {
					seen["s"+p] = true
					shown = append(shown, t)
				}
			}
			for _, t := range prefixAll("*", ad) {
				if p := pointer(t); !seen["a"+p] {
					seen["a"+p] = true
					adds = append(adds, t)
				}
			}
		}
		return shown, adds, true
	}
	if sameLeaf(a, o) {
		return [][]string{{}}, nil, true
	}
	return nil, nil, false
}

// sameLeaf reports whether two scalars are one value: numbers by value,
// timestamps by the instant they name.
func sameLeaf(a, o any) bool {
	switch a := a.(type) {
	case json.Number:
		on, ok := o.(json.Number)
		if !ok {
			return false
		}
		x, err1 := strconv.ParseFloat(a.String(), 64)
		y, err2 := strconv.ParseFloat(on.String(), 64)
		return err1 == nil && err2 == nil && x == y
	case string:
		os, ok := o.(string)
		if !ok {
			return false
		}
		if a == os {
			return true
		}
		ta, err1 := time.Parse(time.RFC3339Nano, a)
		to, err2 := time.Parse(time.RFC3339Nano, os)
		return err1 == nil && err2 == nil && ta.Equal(to)
	}
	return a == o
}

// leaves counts what tails name, a whole value counting one.
func leaves(tails [][]string) int {
	if len(tails) == 0 {
		return -1
	}
	return len(tails)
}

// walkLeaves calls f with every scalar of v and where it is.
func walkLeaves(v any, at []string, f func([]string, any)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			walkLeaves(x[k], append(slices.Clone(at), k), f)
		}
	case []any:
		for i, e := range x {
			walkLeaves(e, append(slices.Clone(at), strconv.Itoa(i)), f)
		}
	default:
		f(at, v)
	}
}

// generalize writes a leaf's place with "*" for every array index.
func generalize(at []string) []string {
	out := slices.Clone(at)
	for i, t := range out {
		if _, err := strconv.Atoi(t); err == nil {
			out[i] = "*"
		}
	}
	return out
}

// leafText returns a scalar as a text would write it.
func leafText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// hasInstant reports whether a shown value of a is a timestamp.
func hasInstant(a any, shown [][]string) bool {
	found := false
	walkLeaves(a, nil, func(at []string, leaf any) {
		s, ok := leaf.(string)
		if !ok || found {
			return
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
			g := pointer(generalize(at))
			for _, t := range shown {
				if p := pointer(t); g == p || strings.HasPrefix(g, p+"/") || p == "" {
					found = true
				}
			}
		}
	})
	return found
}

// lookup returns the value at toks of v.
func lookup(v any, toks []string) any {
	for _, t := range toks {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[t]
	}
	return v
}

// prefixAll returns tails, each with tok before it.
func prefixAll(tok string, tails [][]string) [][]string {
	out := make([][]string, len(tails))
	for i, t := range tails {
		out[i] = append([]string{tok}, t...)
	}
	return out
}

// pointer writes tokens as a JSON pointer.
func pointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString("/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// pointers writes tails as sorted, distinct JSON pointers.
func pointers(tails [][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tails {
		p := pointer(t)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
