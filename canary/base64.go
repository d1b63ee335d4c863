package canary

// base64Value maps both alphabets to 6-bit values: '+' and '-' to 62, '/'
// and '_' to 63; invalidB64 marks every other byte.
var base64Value = func() (t [256]byte) {
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for i := range t {
		t[i] = invalidB64
	}
	for i := range len(letters) {
		t[letters[i]] = byte(i)
	}
	t['+'], t['-'] = 62, 62
	t['/'], t['_'] = 63, 63
	return t
}()

const invalidB64 = 0xff

// decodeBase64 decodes every maximal run of base64 characters (both
// alphabets) in src at each of the four offsets, so that a token encoded
// anywhere inside a longer base64 string is found whatever its byte
// alignment. A run that holds '-' or '_' and neither '+' nor '/' goes to the
// base64url view, any other to the base64 view. Line breaks inside a run are
// skipped (MIME wraps lines); any other byte, padding included, ends the
// run. Only the decoded text is kept (see appendText), which bounds the
// views for hostile input.
func decodeBase64(src []byte, st *decodeState) []view {
	minRun := (st.minKeep*4 + 2) / 3
	var std, url, buf, joined []byte
	for i := 0; i < len(src); {
		if base64Value[src[i]] == invalidB64 {
			i++
			continue
		}
		run, end, hasStd, hasURL := base64Run(src, i, &joined)
		i = end
		if len(run) < minRun || !st.firstTime('b', run) {
			continue
		}
		out := &std
		if hasURL && !hasStd {
			out = &url
		}
		for off := 0; off < 4 && len(run)-off >= minRun; off++ {
			buf = decodeQuanta(buf[:0], run[off:])
			*out = appendText(*out, buf, st.minKeep)
		}
	}
	var views []view
	if len(std) > 0 {
		views = append(views, view{enc: Base64, data: std})
	}
	if len(url) > 0 {
		views = append(views, view{enc: Base64URL, data: url})
	}
	return views
}

// base64Run returns the run of base64 characters starting at src[i], where
// one is, and the index after it; hasStd and hasURL report whether it holds
// '+' or '/', and '-' or '_'. The run is a slice of src unless line breaks
// must be cut out of it, then it is built in *joined.
func base64Run(src []byte, i int, joined *[]byte) (run []byte, end int, hasStd, hasURL bool) {
	start, cut := i, false
	for ; i < len(src); i++ {
		c := src[i]
		if base64Value[c] == invalidB64 {
			if c != '\n' && c != '\r' {
				break
			}
			cut = true
			continue
		}
		hasStd = hasStd || c == '+' || c == '/'
		hasURL = hasURL || c == '-' || c == '_'
	}
	run = src[start:i]
	if cut {
		*joined = (*joined)[:0]
		for _, c := range run {
			if c != '\n' && c != '\r' {
				*joined = append(*joined, c)
			}
		}
		run = *joined
	}
	return run, i, hasStd, hasURL
}

// decodeQuanta appends the bytes that run, which holds only base64
// characters, decodes to: three per four characters, then one or two for a
// final group of two or three characters. A lone final character is
// ignored.
func decodeQuanta(dst, run []byte) []byte {
	i := 0
	for ; i+4 <= len(run); i += 4 {
		v := uint32(base64Value[run[i]])<<18 | uint32(base64Value[run[i+1]])<<12 |
			uint32(base64Value[run[i+2]])<<6 | uint32(base64Value[run[i+3]])
		dst = append(dst, byte(v>>16), byte(v>>8), byte(v))
	}
	switch rest := run[i:]; len(rest) {
	case 2:
		v := uint32(base64Value[rest[0]])<<18 | uint32(base64Value[rest[1]])<<12
		dst = append(dst, byte(v>>16))
	case 3:
		v := uint32(base64Value[rest[0]])<<18 | uint32(base64Value[rest[1]])<<12 | uint32(base64Value[rest[2]])<<6
		dst = append(dst, byte(v>>16), byte(v>>8))
	}
	return dst
}
