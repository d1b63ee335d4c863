package canary

import "encoding/base64"

// decodeBase64Std decodes every run of standard base64 in src.
func decodeBase64Std(src []byte, minKeep int) ([]byte, bool) {
	return decodeBase64Runs(src, minKeep, base64.RawStdEncoding, '+', '/')
}

// decodeBase64URL decodes every run of URL-alphabet base64 in src.
func decodeBase64URL(src []byte, minKeep int) ([]byte, bool) {
	return decodeBase64Runs(src, minKeep, base64.RawURLEncoding, '-', '_')
}

// decodeBase64Runs decodes every maximal run of the alphabet (letters,
// digits, c62 and c63) in src at each of the four offsets, so that a token
// encoded anywhere inside a longer base64 string is found whatever its byte
// alignment. Line breaks inside a run are skipped (MIME wraps lines); any
// other byte, padding included, ends the run. Only the decoded text is kept
// (see appendText), which bounds the view for hostile input.
func decodeBase64Runs(src []byte, minKeep int, enc *base64.Encoding, c62, c63 byte) ([]byte, bool) {
	minRun := (minKeep*4 + 2) / 3
	var out, run, buf []byte
	flush := func() {
		for off := 0; off < 4 && len(run)-off >= minRun; off++ {
			q := run[off:]
			if len(q)%4 == 1 {
				q = q[:len(q)-1]
			}
			buf = grow(buf, enc.DecodedLen(len(q)))
			n, _ := enc.Decode(buf, q) // q holds only alphabet characters
			out = appendText(out, buf[:n], minKeep)
		}
		run = run[:0]
	}
	for _, c := range src {
		switch {
		case isAlnum(c) || c == c62 || c == c63:
			run = append(run, c)
		case c == '\n' || c == '\r':
		default:
			flush()
		}
	}
	flush()
	return out, len(out) > 0
}

// grow returns buf resized to n bytes, reusing its array when it can.
func grow(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n)
	}
	return buf[:n]
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
