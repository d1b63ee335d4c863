package judge

import (
	"encoding/json"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// number reads a number and keeps its literal; one beyond the range of a
// float64 is nonfinite_number.
func (d *document) number() (any, error) {
	start := d.pos
	lit, err := d.numberText()
	if err != nil {
		return nil, err
	}
	if overflowsFloat64(lit) {
		return nil, d.fail(protocol.ReasonNonfinite, start, "number %.40q is beyond the range of a float64", lit)
	}
	return json.Number(lit), nil
}

// numberText reads the literal of a number (RFC 8259, section 6):
// [-] int [frac] [exp].
func (d *document) numberText() (string, error) {
	start := d.pos
	if d.peek() == '-' {
		d.pos++
	}
	if err := d.integer(); err != nil {
		return "", err
	}
	if d.peek() == '.' {
		d.pos++
		if err := d.digits("after a decimal point"); err != nil {
			return "", err
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if err := d.digits("in an exponent"); err != nil {
			return "", err
		}
	}
	return string(d.raw[start:d.pos]), nil
}

// integer reads the integer part: 0, or a digit 1-9 and more digits.
func (d *document) integer() error {
	if d.peek() == '0' {
		d.pos++
		return nil
	}
	return d.digits("in a number")
}

// digits reads one digit or more.
func (d *document) digits(where string) error {
	switch {
	case d.pos == len(d.raw):
		return d.truncated()
	case !isDigit(d.raw[d.pos]):
		return d.unexpected(d.pos, where)
	}
	for d.pos < len(d.raw) && isDigit(d.raw[d.pos]) {
		d.pos++
	}
	return nil
}

// overflowDigits are the significant digits of 2^1024 - 2^970, the
// smallest magnitude that rounds to infinity in a float64 (round half to
// even: it lies half way between math.MaxFloat64 and 2^1024, and
// MaxFloat64 is odd). Written 0.D × 10^309, a magnitude overflows when its
// exponent is above 309, or is 309 and D ≥ overflowDigits.
const overflowDigits = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

// overflowExponent is the decimal exponent of overflowDigits.
const overflowExponent = 309

// overflowsFloat64 reports whether lit, a valid JSON number, is too large
// in magnitude for a finite float64. It compares decimal digits and never
// converts, so it does not depend on how a float parser rounds; numbers too
// small for a float64 are not refused (they read as zero).
func overflowsFloat64(lit string) bool {
	lit = strings.TrimPrefix(lit, "-")
	mantissa, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		mantissa, exp = lit[:i], lit[i+1:]
	}
	whole, frac, _ := strings.Cut(mantissa, ".")
	digits := whole + frac
	point := len(whole) // value = 0.digits × 10^(point + exp)
	significant := strings.TrimLeft(digits, "0")
	if significant == "" {
		return false // zero
	}
	point -= len(digits) - len(significant)
	e := point + exponentValue(exp)
	if e != overflowExponent {
		return e > overflowExponent
	}
	return strings.TrimRight(significant, "0") >= overflowDigits
}

// exponentValue returns the value of an exponent ("", "+12", "-3", "7"),
// saturated far beyond any exponent that could still matter.
func exponentValue(exp string) int {
	const saturate = 1 << 40
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(exp, "+-")
	v := 0
	for i := 0; i < len(exp) && v < saturate; i++ {
		v = v*10 + int(exp[i]-'0')
	}
	if neg {
		return -v
	}
	return v
}
