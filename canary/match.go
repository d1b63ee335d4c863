package canary

import "slices"

const (
	hashBase  = 0x100000001b3 // multiplier of the rolling hash
	slotBits  = 16
	slotWords = 1 << slotBits / 64
)

// matcher finds a fixed set of tokens in one pass over a view, whatever the
// number of tokens: a rolling hash per token length, a bit filter of the
// tokens' hashes, and a map lookup only where the filter says maybe.
type matcher struct {
	groups []*lengthGroup
	minLen int
	// inToken marks the bytes some token holds; a window with any other
	// byte cannot match, so the search skips past it without hashing.
	inToken [256]bool
}

// lengthGroup holds the tokens of one length.
type lengthGroup struct {
	n      int
	pow    uint64 // hashBase^(n-1)
	filter [slotWords]uint64
	index  map[string]int // token -> caller's index
}

// newMatcher prepares a matcher for tokens, which must be non-empty and
// distinct; matches report a token by its index in tokens.
func newMatcher(tokens []string) *matcher {
	m := &matcher{}
	byLen := map[int]*lengthGroup{}
	for i, tok := range tokens {
		g := byLen[len(tok)]
		if g == nil {
			g = newLengthGroup(len(tok))
			byLen[len(tok)] = g
			m.groups = append(m.groups, g)
		}
		g.index[tok] = i
		g.set(hashOf([]byte(tok)))
		for j := range len(tok) {
			m.inToken[tok[j]] = true
		}
	}
	slices.SortFunc(m.groups, func(a, b *lengthGroup) int { return a.n - b.n })
	if len(m.groups) > 0 {
		m.minLen = m.groups[0].n
	}
	return m
}

func newLengthGroup(n int) *lengthGroup {
	g := &lengthGroup{n: n, pow: 1, index: map[string]int{}}
	for range n - 1 {
		g.pow *= hashBase
	}
	return g
}

// each calls fn with the index of every token occurrence in v, possibly
// more than once for the same token.
func (m *matcher) each(v []byte, fn func(int)) {
	for i := 0; i < len(v); {
		if !m.inToken[v[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(v) && m.inToken[v[j]] {
			j++
		}
		if j-i >= m.minLen {
			for _, g := range m.groups {
				g.each(v[i:j], fn)
			}
		}
		i = j
	}
}

// each searches v, a run of bytes that tokens hold, with the rolling hash.
func (g *lengthGroup) each(v []byte, fn func(int)) {
	n := g.n
	if len(v) < n {
		return
	}
	h := hashOf(v[:n])
	for i := 0; ; i++ {
		if g.maybe(h) {
			if idx, ok := g.index[string(v[i:i+n])]; ok {
				fn(idx)
			}
		}
		if i+n >= len(v) {
			return
		}
		h = (h-uint64(v[i])*g.pow)*hashBase + uint64(v[i+n])
	}
}

func hashOf(b []byte) uint64 {
	var h uint64
	for _, c := range b {
		h = h*hashBase + uint64(c)
	}
	return h
}

func slot(h uint64) uint64 { return h >> (64 - slotBits) }

func (g *lengthGroup) set(h uint64) { s := slot(h); g.filter[s/64] |= 1 << (s % 64) }

func (g *lengthGroup) maybe(h uint64) bool { s := slot(h); return g.filter[s/64]&(1<<(s%64)) != 0 }
