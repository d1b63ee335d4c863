package judge

// seqState is what utf8Seq found at the start of its input.
type seqState int

const (
	// seqValid is a whole, valid UTF-8 sequence (RFC 3629).
	seqValid seqState = iota
	// seqInvalid can never be valid UTF-8, whatever follows.
	seqInvalid
	// seqCut is a valid beginning that the input ends inside.
	seqCut
)

// utf8Seq reads the UTF-8 sequence at the start of b (not empty) and
// returns its length and state; an invalid sequence has length 1. Valid
// means the shortest form of a scalar value: no overlong form, no
// surrogate (U+D800 to U+DFFF), nothing past U+10FFFF.
func utf8Seq(b []byte) (int, seqState) {
	n, lo, hi := seqShape(b[0])
	if n == 0 {
		return 1, seqInvalid
	}
	for i := 1; i < n; i++ {
		if i == len(b) {
			return i, seqCut
		}
		c := b[i]
		if i > 1 {
			lo, hi = 0x80, 0xBF
		}
		if c < lo || c > hi {
			return 1, seqInvalid
		}
	}
	return n, seqValid
}

// utf8Check returns the state of the sequence at the start of b.
func utf8Check(b []byte) seqState {
	_, st := utf8Seq(b)
	return st
}

// seqShape returns, for the first byte of a sequence, its length and the
// range of its second byte (RFC 3629, section 4); length 0 for a byte no
// sequence starts with.
func seqShape(first byte) (n int, lo, hi byte) {
	switch {
	case first < 0x80:
		return 1, 0, 0
	case 0xC2 <= first && first <= 0xDF:
		return 2, 0x80, 0xBF
	case first == 0xE0:
		return 3, 0xA0, 0xBF
	case first == 0xED:
		return 3, 0x80, 0x9F
	case 0xE1 <= first && first <= 0xEF:
		return 3, 0x80, 0xBF
	case first == 0xF0:
		return 4, 0x90, 0xBF
	case 0xF1 <= first && first <= 0xF3:
		return 4, 0x80, 0xBF
	case first == 0xF4:
		return 4, 0x80, 0x8F
	}
	return 0, 0, 0
}

// validUTF8 reports whether all of b is valid UTF-8.
func validUTF8(b []byte) bool {
	for len(b) > 0 {
		n, st := utf8Seq(b)
		if st != seqValid {
			return false
		}
		b = b[n:]
	}
	return true
}
