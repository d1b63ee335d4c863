package canary

import "slices"

const (
	hashBase = 0x100000001b3 // multiplier of the rolling hash
	// bitsPerToken sizes a group's filter: about 1 in 64 windows of other
	// bytes passes it to the map lookup.
	bitsPerToken = 64
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
	shift  uint   // a hash's slot in filter is its top 64-shift bits
	filter []uint64
	index  map[string]int // token -> caller's index
}

// newMatcher prepares a matcher for tokens, which must be non-empty and
// distinct; matches report a token by its index in tokens.
func newMatcher(tokens []string) *matcher {
	m := &matcher{}
	count := map[int]int{}
	for _, tok := range tokens {
		count[len(tok)]++
	}
	byLen := map[int]*lengthGroup{}
	for i, tok := range tokens {
		g := byLen[len(tok)]
		if g == nil {
			g = newLengthGroup(len(tok), count[len(tok)])
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

// newLengthGroup prepares the group of tokens tokens of length n: a filter
// of bitsPerToken bits per token, in a power of two of at least 64 bits
// (a case's few canaries need a word or two, not a fixed 8 KiB).
func newLengthGroup(n, tokens int) *lengthGroup {
	bits := uint(6) // 64
	for 1<<bits < tokens*bitsPerToken && bits < 24 {
		bits++
	}
	g := &lengthGroup{n: n, pow: 1, shift: 64 - bits, filter: make([]uint64, 1<<bits/64), index: make(map[string]int, tokens)}
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

func (g *lengthGroup) set(h uint64) { s := h >> g.shift; g.filter[s/64] |= 1 << (s % 64) }

func (g *lengthGroup) maybe(h uint64) bool { s := h >> g.shift; return g.filter[s/64]&(1<<(s%64)) != 0 }
