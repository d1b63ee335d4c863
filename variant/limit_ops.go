package variant

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// limitOperators go one past the target's limits: nesting depth and body
// size.
func limitOperators() []operator {
	return []operator{
		{name: "too_deep", describe: `a member "deep" added to every object, nested so the document is MaxDepth+1 deep, in arrays (#array) or objects (#object)`, json: tooDeep},
		{name: "at_depth_limit", describe: `a member "deep" nested so the document is exactly MaxDepth deep: parsed, then refused by the closed schema`, json: atDepthLimit},
		{name: "over_byte_limit", describe: "the body padded past MaxBytes whatever its placeholders render to: a padded member (#string) or trailing white space (#whitespace)", json: overByteLimit, kv: overByteLimitKV},
	}
}

// nested returns levels containers, arrays or objects, around a canary.
func nested(levels int, objects bool) *node {
	v := strNode("{{canary:deep}}")
	for range levels {
		if objects {
			v = objNode("deep", v)
		} else {
			v = arrNode(v)
		}
	}
	return v
}

// withDeep returns the example with a member "deep" added to the object at
// ptr, holding levels containers.
func withDeep(x *example, ptr string, levels int, objects bool) *node {
	t := x.tree.clone()
	obj := t.at(ptr)
	obj.members = append(obj.members, member{name: "deep", raw: `"deep"`, value: nested(levels, objects)})
	return t
}

func tooDeep(x *example) []draft {
	var out []draft
	for _, ptr := range x.objects() {
		// The object at ptr is at depth depth(ptr)+1; its new member's
		// containers go from depth(ptr)+2 to depth(ptr)+1+levels.
		levels := x.opts.MaxDepth - depth(ptr)
		if levels < 1 {
			continue
		}
		for _, s := range []struct {
			tag     string
			objects bool
		}{{"array", false}, {"object", true}} {
			t := withDeep(x, ptr, levels, s.objects)
			note := fmt.Sprintf("%d nested %ss under %s: %d levels deep", levels, s.tag, where(ptr), x.opts.MaxDepth+1)
			out = append(out, treeDraft(ptr, s.tag, note, t, parseFault(protocol.ReasonDepthLimit)))
		}
	}
	return out
}

func atDepthLimit(x *example) []draft {
	if x.tree.kind != '{' || x.schema.unknown || x.schema.allowsMember("deep") || x.opts.MaxDepth < 2 {
		return nil
	}
	t := withDeep(x, "", x.opts.MaxDepth-1, false)
	note := fmt.Sprintf("%d nested arrays under the root: exactly %d levels deep", x.opts.MaxDepth-1, x.opts.MaxDepth)
	return []draft{treeDraft("", "", note, t, schemaFault())}
}

// paddingFor returns how many padding bytes put body past the byte limit
// by 64 bytes even if every placeholder in it rendered to nothing.
func paddingFor(x *example, body []byte) int {
	n := int(x.opts.MaxBytes) + 64 - len(body)
	for _, s := range placeholderSpans(body) {
		n += s[1] - s[0]
	}
	return max(n, 64)
}

func overByteLimit(x *example) []draft {
	e := rejected(protocol.GateTransport, protocol.ReasonByteLimit)
	ws := x.markedEarly("").encode()
	ws = append(ws, bytes.Repeat([]byte(" "), paddingFor(x, ws))...)
	out := []draft{{tag: "whitespace", note: fmt.Sprintf("white space after the document, %d bytes in all", len(ws)), body: ws, expect: e}}
	if x.tree.kind != '{' {
		return out
	}
	t := x.tree.clone()
	t.members = append(t.members, member{name: "padding", raw: `"padding"`, value: strNode("{{canary:pad}}")})
	t.members[len(t.members)-1].value = strNode("{{canary:pad}}" + strings.Repeat("x", paddingFor(x, t.encode())))
	d := treeDraft("", "string", fmt.Sprintf("a member padded to %d bytes", len(t.encode())), t, e)
	return append([]draft{d}, out...)
}
