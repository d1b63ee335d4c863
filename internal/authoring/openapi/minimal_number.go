package openapi

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

// maxGenCount bounds a generated length or count.
const maxGenCount = 4096

// itoa formats i.
func itoa(i int) string { return strconv.Itoa(i) }

// intOf returns the non-negative integer keyword key of o, 0 when unset,
// at most maxGenCount.
func intOf(o *object, key string) int {
	v, _ := o.get(key)
	n, ok := v.(number)
	if !ok {
		return 0
	}
	i, err := strconv.Atoi(string(n))
	if err != nil || i < 0 {
		return 0
	}
	return min(i, maxGenCount)
}

// bounds is the range the schemas of a number allow.
type bounds struct {
	lo, hi         *big.Rat
	loOpen, hiOpen bool
	step           *big.Rat
}

// boundsOf gathers the strictest bounds of flat.
func boundsOf(flat []sub) bounds {
	var b bounds
	for _, s := range flat {
		o := s.s.(*object)
		b.lower(o, "minimum", false)
		b.lower(o, "exclusiveMinimum", true)
		b.upper(o, "maximum", false)
		b.upper(o, "exclusiveMaximum", true)
		if m, ok := ratKey(o, "multipleOf"); ok && m.Sign() > 0 && b.step == nil {
			b.step = m
		}
	}
	return b
}

// lower tightens the lower bound with keyword key of o.
func (b *bounds) lower(o *object, key string, open bool) {
	v, ok := ratKey(o, key)
	if !ok {
		return
	}
	if c := cmpOrNil(v, b.lo); b.lo == nil || c > 0 || c == 0 && open {
		b.lo, b.loOpen = v, open
	}
}

// upper tightens the upper bound with keyword key of o.
func (b *bounds) upper(o *object, key string, open bool) {
	v, ok := ratKey(o, key)
	if !ok {
		return
	}
	if c := cmpOrNil(v, b.hi); b.hi == nil || c < 0 || c == 0 && open {
		b.hi, b.hiOpen = v, open
	}
}

// cmpOrNil compares a with b, 0 when b is nil.
func cmpOrNil(a, b *big.Rat) int {
	if b == nil {
		return 0
	}
	return a.Cmp(b)
}

// ratKey returns the number keyword key of o, exactly.
func ratKey(o *object, key string) (*big.Rat, bool) {
	v, _ := o.get(key)
	n, ok := v.(number)
	if !ok {
		return nil, false
	}
	return ratOf(string(n))
}

// numberFor makes the number flat describes: 0 when allowed, else the
// least allowed value above the lower bound (or the greatest below the
// upper one), on a multiple of multipleOf.
func numberFor(flat []sub, integer bool) (any, error) {
	b := boundsOf(flat)
	v := new(big.Rat)
	switch {
	case b.allows(v):
	case b.lo != nil:
		v = b.above(integer)
	case b.hi != nil:
		v = b.below(integer)
	}
	if b.step != nil {
		v = ceilMultiple(v, b.step, integer)
	}
	if integer && !v.IsInt() || !b.allows(v) {
		return nil, errors.New("no number satisfies the bounds and multipleOf")
	}
	return number(ratLiteral(v)), nil
}

// allows reports whether v is within b.
func (b bounds) allows(v *big.Rat) bool {
	if b.lo != nil && (v.Cmp(b.lo) < 0 || b.loOpen && v.Cmp(b.lo) == 0) {
		return false
	}
	return b.hi == nil || v.Cmp(b.hi) < 0 || !b.hiOpen && v.Cmp(b.hi) == 0
}

// above returns the least value just above the lower bound.
func (b bounds) above(integer bool) *big.Rat {
	v := new(big.Rat).Set(b.lo)
	switch {
	case integer:
		v = ceilRat(v)
		if b.loOpen && v.Cmp(b.lo) == 0 {
			v.Add(v, big.NewRat(1, 1))
		}
	case b.loOpen && b.hi != nil:
		v.Add(v, b.hi).Quo(v, big.NewRat(2, 1))
	case b.loOpen:
		v.Add(v, big.NewRat(1, 1))
	}
	return v
}

// below returns the greatest value just below the upper bound.
func (b bounds) below(integer bool) *big.Rat {
	v := new(big.Rat).Set(b.hi)
	switch {
	case integer:
		v = new(big.Rat).Neg(ceilRat(new(big.Rat).Neg(v)))
		if b.hiOpen && v.Cmp(b.hi) == 0 {
			v.Sub(v, big.NewRat(1, 1))
		}
	case b.hiOpen:
		v.Sub(v, big.NewRat(1, 1))
	}
	return v
}

// ceilRat returns the least integer at or above v.
func ceilRat(v *big.Rat) *big.Rat {
	q, m := new(big.Int).DivMod(v.Num(), v.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

// ceilMultiple returns the least multiple of step at or above v (an
// integer one when integer is set and step allows it).
func ceilMultiple(v, step *big.Rat, integer bool) *big.Rat {
	k := ceilRat(new(big.Rat).Quo(v, step))
	out := new(big.Rat).Mul(k, step)
	for i := 0; integer && !out.IsInt() && i < 1000; i++ {
		out.Add(out, step)
	}
	return out
}

// ratLiteral writes v as a JSON number: an integer, or a decimal.
func ratLiteral(v *big.Rat) string {
	if v.IsInt() {
		return v.Num().String()
	}
	s := strings.TrimRight(v.FloatString(30), "0")
	return strings.TrimSuffix(s, ".")
}
