package variant

import (
	"github.com/toolcert/toolcert/internal/judge"
)

// Walks of an example's tree: the pointers operators iterate over, in
// document order.

// pointers returns the pointers of the values for which keep is true.
func (x *example) pointers(keep func(*node) bool) []string {
	var out []string
	x.tree.visit("", func(ptr string, n *node) bool {
		if keep(n) {
			out = append(out, ptr)
		}
		return true
	})
	return out
}

// objects returns the pointers of every object, the root first.
func (x *example) objects() []string {
	return x.pointers(func(n *node) bool { return n.kind == '{' })
}

// leaves returns the pointers of every scalar.
func (x *example) leaves() []string {
	return x.pointers(func(n *node) bool { return !n.isContainer() })
}

// stringLeaves returns the pointers of every string scalar.
func (x *example) stringLeaves() []string {
	return x.pointers(func(n *node) bool { return n.kind == '"' })
}

// numberLeaves returns the pointers of every number scalar.
func (x *example) numberLeaves() []string {
	return x.pointers(func(n *node) bool { return n.kind == '0' })
}

// members returns the pointers of every object member (not the root).
func (x *example) members() []string {
	var out []string
	x.tree.visit("", func(ptr string, n *node) bool {
		for _, m := range n.members {
			out = append(out, ptr+"/"+judge.EscapePointerToken(m.name))
		}
		return true
	})
	return out
}

// treeDraft is a draft whose body is the tree, written on one line.
func treeDraft(field, tag, note string, t *node, e Expect) draft {
	return draft{field: field, tag: tag, note: note, body: t.encode(), expect: e, mark: t.markPointer()}
}

// where names the value at ptr for a note.
func where(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
