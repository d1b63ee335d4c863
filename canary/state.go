package canary

import "hash/maphash"

// decodeState is what the decoders share while Scan works on one part
// (newPart begins the next).
type decodeState struct {
	// minKeep is the shortest run of decoded text worth keeping from binary
	// decodings: half the shortest token, since no encoding of a token
	// Scan reads is shorter than that.
	minKeep int
	seed    maphash.Seed
	// seen holds the hashes of the base64 and hex runs already decoded in
	// this part: chained views repeat most of the part they come from, and
	// decoding a run again would only find what its first decoding found.
	seen map[uint64]struct{}
}

func newDecodeState(minLen int) *decodeState {
	return &decodeState{minKeep: max(1, minLen/2), seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
}

// newPart forgets the runs decoded in the part before: a run is decoded
// once per part, since each part's leaks are its own.
func (st *decodeState) newPart() { clear(st.seen) }

// firstTime reports whether run, a run of the given kind of characters, is
// decoded for the first time in this part, and records it. The seed is
// random, so an adapter cannot aim a collision.
func (st *decodeState) firstTime(kind byte, run []byte) bool {
	var h maphash.Hash
	h.SetSeed(st.seed)
	h.WriteByte(kind)
	h.Write(run)
	sum := h.Sum64()
	if _, ok := st.seen[sum]; ok {
		return false
	}
	st.seen[sum] = struct{}{}
	return true
}
