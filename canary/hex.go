package canary

// decodeHex decodes every maximal run of hexadecimal digits (either case) in
// src at both nibble offsets, keeping only the decoded text (see
// appendText).
func decodeHex(src []byte, st *decodeState) []view {
	minRun := 2 * st.minKeep
	var out, buf []byte
	start := -1
	for i := 0; i <= len(src); i++ {
		if i < len(src) {
			if hexDigit[src[i]] {
				if start < 0 {
					start = i
				}
				continue
			}
		}
		if start >= 0 && i-start >= minRun && st.firstTime('x', src[start:i]) {
			for off := 0; off < 2; off++ {
				buf = decodeNibbles(buf[:0], src[start+off:i])
				out = appendText(out, buf, st.minKeep)
			}
		}
		start = -1
	}
	if len(out) == 0 {
		return nil
	}
	return []view{{enc: Hex, data: out}}
}

// decodeNibbles appends the bytes of the hexadecimal digits in run to dst,
// ignoring a last odd digit.
func decodeNibbles(dst, run []byte) []byte {
	for i := 0; i+1 < len(run); i += 2 {
		hi, _ := unhex(run[i])
		lo, _ := unhex(run[i+1])
		dst = append(dst, hi<<4|lo)
	}
	return dst
}

// hexDigit marks the hexadecimal digits of either case.
var hexDigit = func() (t [256]bool) {
	for c := range t {
		_, t[c] = unhex(byte(c))
	}
	return t
}()
