package openapi

import (
	"math/big"
	"strconv"
	"strings"
)

// maxExponent bounds the decimal exponent of a literal read exactly: a
// larger one would make an exact rational of astronomical size.
const maxExponent = 400

// ratOf returns the exact value of JSON number literal lit.
func ratOf(lit string) (*big.Rat, bool) {
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+"))
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
	}
	return new(big.Rat).SetString(lit)
}
