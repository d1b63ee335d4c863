package canary

// Part is one piece of agent-visible output: Where names it in evidence
// ("status line", "header X-Foo", "body") and Data holds its bytes as the
// agent received them.
type Part struct {
	Where string
	Data  []byte
}

// Scan looks for every canary in every part, raw and in decoded views of
// the part: each decoding alone, then every chain of two (see [Raw] and the
// encodings after it). It returns one [Leak] per canary found in a part,
// naming the first view in that order that shows the token, ordered by part
// and then by canary; nil when nothing leaked.
//
// Canaries should be tokens from a [Set]: ASCII letters and digits, long
// enough not to occur by chance. Empty and repeated tokens are ignored.
// Scan never panics on hostile data and its work grows linearly with the
// size of the parts, whatever their content.
func Scan(parts []Part, canaries []Canary) []Leak {
	cs := distinct(canaries)
	if len(cs) == 0 {
		return nil
	}
	tokens := make([]string, len(cs))
	for i, c := range cs {
		tokens[i] = c.Token
	}
	m := newMatcher(tokens)
	st := newDecodeState(m.minLen)
	var leaks []Leak
	for _, p := range parts {
		for i, enc := range scanPart(p.Data, m, len(cs), st) {
			if enc != "" {
				leaks = append(leaks, Leak{Token: cs[i].Token, Planted: cs[i].Planted, Surfaced: p.Where, Encoding: enc})
			}
		}
	}
	return leaks
}

// distinct drops empty and repeated tokens, keeping the first of each.
func distinct(canaries []Canary) []Canary {
	seen := map[string]bool{}
	var out []Canary
	for _, c := range canaries {
		if c.Token == "" || seen[c.Token] {
			continue
		}
		seen[c.Token] = true
		out = append(out, c)
	}
	return out
}

// scanPart returns, for each token of m, the encoding of the first view of
// data that shows it, or "": raw, then each decoding alone, then each chain
// of two. st is the Scan's, begun anew for this part.
func scanPart(data []byte, m *matcher, n int, st *decodeState) []string {
	s := &partSearch{m: m, found: make([]string, n), left: n}
	if s.look(data, Raw) {
		return s.found
	}
	st.newPart()
	singles, done := s.singles(data, st)
	if !done {
		s.chains(&singles, st)
	}
	return s.found
}

// singles searches each decoding of data and returns the views that may
// start a chain, by decoder; done reports that every token was found.
func (s *partSearch) singles(data []byte, st *decodeState) (singles [len(decoders)][]view, done bool) {
	for i, d := range decoders {
		vs := d.decode(data, st)
		for _, v := range vs {
			if s.look(v.data, v.enc) {
				return singles, true
			}
		}
		if !d.last {
			singles[i] = vs
		}
	}
	return singles, false
}

// chains searches every second decoding of the single views, and drops each
// single view once done with it.
func (s *partSearch) chains(singles *[len(decoders)][]view, st *decodeState) {
	for i := range decoders {
		for _, v1 := range singles[i] {
			for j, d2 := range decoders {
				if d2.idempotent && i == j {
					continue
				}
				for _, v2 := range d2.decode(v1.data, st) {
					if s.look(v2.data, v1.enc+"+"+v2.enc) {
						return
					}
				}
			}
		}
		singles[i] = nil
	}
}

// partSearch records which tokens one part has shown so far.
type partSearch struct {
	m     *matcher
	found []string // encoding per token index, "" while not found
	left  int
}

// look searches view v, labelled enc, and reports whether every token has
// now been found.
func (s *partSearch) look(v []byte, enc string) bool {
	s.m.each(v, func(i int) {
		if s.found[i] == "" {
			s.found[i] = enc
			s.left--
		}
	})
	return s.left == 0
}
