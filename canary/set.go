package canary

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"hash"
	"strconv"
	"strings"
	"sync"
)

// TokenLen is the length in bytes of every canary token a [Set] hands out:
// the prefix "tc" and 18 lowercase base32 characters [a-z2-7]. Tokens are
// alphanumeric so that they fit in JSON strings and property names, header
// values, reason phrases, URL paths and vendor id patterns such as
// ^[A-Za-z0-9_.-]{1,64}$.
const TokenLen = len(tokenPrefix) + tokenChars

const (
	tokenPrefix = "tc"
	tokenChars  = 18
	// domain separates these HMAC inputs from any other use of the seed.
	domain = "toolcert canary v1"
)

// lowerBase32 renders a digest as unpadded lowercase base32.
var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Canary is one planted token and a description of where it was planted,
// such as "header X-Upstream-Trace" or "body /admin_override (property
// value)".
type Canary struct {
	Token   string
	Planted string
}

// Set hands out the canaries of one scenario. Create it with [NewSet]. A Set
// is safe for concurrent use.
type Set struct {
	seed  uint64
	scope string
	// shared maps the names of canaries whose tokens derive from another
	// scope to that scope (SharedNames).
	shared map[string]string

	mu      sync.Mutex
	seq     int
	all     []Canary
	byName  map[string]int // name -> index in all
	byToken map[string]int // token -> index in all
}

// NewSet returns an empty Set for one scope (a scenario id, say) of the run
// with the given seed. The same seed, scope and sequence of calls give the
// same tokens; any other seed or scope gives unrelated ones.
func NewSet(seed uint64, scope string, opts ...Option) *Set {
	s := &Set{
		seed:    seed,
		scope:   scope,
		byName:  map[string]int{},
		byToken: map[string]int{},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Option changes a Set made by [NewSet].
type Option func(*Set)

// SharedNames makes the canaries called names take the tokens a Set of
// scope gives them (the same seed's): a scenario that serves an answer
// made from another's (a hostile variant of an example the harness served
// as it is) plants the same tokens where the two answers agree, so that
// what the agent saw of both can be compared.
func SharedNames(scope string, names ...string) Option {
	return func(s *Set) {
		if s.shared == nil {
			s.shared = map[string]string{}
		}
		for _, n := range names {
			s.shared[n] = scope
		}
	}
}

// Token returns the token of the canary called name, and false when the
// Set has handed out none by that name.
func (s *Set) Token(name string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.byName[name]
	if !ok {
		return "", false
	}
	return s.all[i].Token, true
}

// New returns a fresh canary and records it with planted, the description of
// where the caller is about to plant it, such as "header X-Upstream-Trace".
// The n-th call to New on a Set derives its token from the run seed, the
// scope and n.
func (s *Set) New(planted string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.add("seq", strconv.Itoa(s.seq), planted)
}

// Named returns the canary called name, creating it on first use; fixtures
// use one {{canary:name}} placeholder in several places. Its token derives
// from the run seed, the scope and name, whatever the order of calls. When
// a later call plants the same canary somewhere else, its description is
// appended to Planted, separated by "; ".
func (s *Set) Named(name, planted string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i, ok := s.byName[name]; ok {
		s.alsoPlanted(i, planted)
		return s.all[i].Token
	}
	scope := s.scope
	if shared, ok := s.shared[name]; ok {
		scope = shared
	}
	tok := s.addIn(scope, "name", name, planted)
	s.byName[name] = len(s.all) - 1
	return tok
}

// All returns a copy of the canaries handed out so far, in creation order;
// pass it to [Scan].
func (s *Set) All() []Canary {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Canary(nil), s.all...)
}

// add derives a token not yet in the Set and records it. The caller holds mu.
func (s *Set) add(kind, id, planted string) string {
	return s.addIn(s.scope, kind, id, planted)
}

// addIn is add with the tokens of scope. The caller holds mu.
func (s *Set) addIn(scope, kind, id, planted string) string {
	tok := derive(s.seed, scope, kind, id, 0)
	for n := 1; ; n++ {
		if _, dup := s.byToken[tok]; !dup {
			break
		}
		tok = derive(s.seed, scope, kind, id, n)
	}
	s.byToken[tok] = len(s.all)
	s.all = append(s.all, Canary{Token: tok, Planted: planted})
	return tok
}

// alsoPlanted appends planted to the description of canary i unless it is
// already there. The caller holds mu.
func (s *Set) alsoPlanted(i int, planted string) {
	c := &s.all[i]
	if planted == "" {
		return
	}
	for _, p := range strings.Split(c.Planted, "; ") {
		if p == planted {
			return
		}
	}
	if c.Planted == "" {
		c.Planted = planted
		return
	}
	c.Planted += "; " + planted
}

// derive computes the token for (seed, scope, kind, id) with HMAC-SHA256
// keyed by the seed; retry is nonzero only to step past a collision.
func derive(seed uint64, scope, kind, id string, retry int) string {
	m, _ := macs.Get().(*seededMAC)
	if m == nil || m.seed != seed {
		var key [8]byte
		binary.BigEndian.PutUint64(key[:], seed)
		m = &seededMAC{seed: seed, mac: hmac.New(sha256.New, key[:])}
	}
	defer macs.Put(m)
	m.mac.Reset()
	m.buf = m.buf[:0]
	for _, field := range []string{domain, scope, kind, id, strconv.Itoa(retry)} {
		m.buf = binary.BigEndian.AppendUint64(m.buf, uint64(len(field)))
		m.buf = append(m.buf, field...)
	}
	m.mac.Write(m.buf)
	m.sum = m.mac.Sum(m.sum[:0])
	var enc [64]byte
	lowerBase32.Encode(enc[:], m.sum)
	return tokenPrefix + string(enc[:tokenChars])
}

// seededMAC is an HMAC keyed by a seed, kept between derivations with its
// buffers: keying one costs as much as a derivation.
type seededMAC struct {
	seed     uint64
	mac      hash.Hash
	buf, sum []byte
}

var macs sync.Pool
