package judge

import (
	"math"
	"math/big"
	"strconv"
	"testing"
	"unicode/utf8"
)

// TestOverflowDigits: the constant is 2^1024 - 2^970, the midpoint
// between math.MaxFloat64 and 2^1024.
func TestOverflowDigits(t *testing.T) {
	two := big.NewInt(2)
	mid := new(big.Int).Sub(new(big.Int).Exp(two, big.NewInt(1024), nil), new(big.Int).Exp(two, big.NewInt(970), nil))
	s := mid.String()
	if len(s) != overflowExponent {
		t.Errorf("2^1024-2^970 has %d digits, overflowExponent is %d", len(s), overflowExponent)
	}
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s != overflowDigits {
		t.Errorf("overflowDigits is not 2^1024-2^970")
	}
}

// TestOverflowsFloat64 compares the digit test with strconv's rounding.
func TestOverflowsFloat64(t *testing.T) {
	tests := []struct {
		lit string
		why string
	}{
		{"1e308", "below"}, {"1e309", "above"}, {"-1e400", "sign ignored"}, {"0e99999", "zero"},
		{"1.7976931348623157e308", "max"}, {"1.7976931348623158e308", "rounds down to max"},
		{"1.7976931348623159e308", "rounds up"}, {"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791", "just below half way"},
		{"0.0001797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977921e313", "half way, written small"},
		{"1e-400", "underflow is not overflow"}, {"1e99999999999999999999999", "saturated exponent"},
		{"123e306", "integer part moves the point"}, {"0.00123e312", "fraction moves the point back"},
	}
	for _, tt := range tests {
		f, _ := strconv.ParseFloat(tt.lit, 64)
		if got, want := overflowsFloat64(tt.lit), math.IsInf(f, 0); got != want {
			t.Errorf("overflowsFloat64(%.40s) = %v, strconv says %v (%s)", tt.lit, got, want, tt.why)
		}
	}
}

// TestUTF8Seq compares the sequence reader with package unicode/utf8 on
// every one- and two-byte input and on the edges of every range.
func TestUTF8Seq(t *testing.T) {
	var inputs [][]byte
	for a := range 256 {
		inputs = append(inputs, []byte{byte(a)})
		for b := range 256 {
			inputs = append(inputs, []byte{byte(a), byte(b)})
		}
	}
	for _, lead := range []byte{0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5} {
		for _, b := range []byte{0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0} {
			inputs = append(inputs, []byte{lead, b, 0x80}, []byte{lead, b, 0x80, 0x80}, []byte{lead, 0x90, b, 0x80}, []byte{lead, 0x90, 0x80, b})
		}
	}
	for _, in := range inputs {
		n, st := utf8Seq(in)
		r, size := utf8.DecodeRune(in)
		var want seqState
		switch {
		case r != utf8.RuneError || size > 1:
			want = seqValid
		case !utf8.FullRune(in):
			want = seqCut
		default:
			want = seqInvalid
		}
		if st != want || (st == seqValid && n != size) {
			t.Errorf("utf8Seq(% x) = %d, %v; unicode/utf8 says %d, %v", in, n, st, size, want)
		}
	}
}
