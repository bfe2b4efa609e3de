package codec

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"unsafe"
)

// The helpers of the validation keywords beyond what the MCP schemas use:
// multipleOf, uniqueItems, and the bookkeeping of unevaluatedProperties and
// unevaluatedItems. None of them allocates for the values of a valid
// document (uniqueItems and multipleOf compare exact decimal text).

// Eval records which members of an object (by their position in it) or
// elements of an array a schema evaluated: the annotations of properties,
// patternProperties, additionalProperties, prefixItems, items, contains and
// unevaluated*, gathered from the subschemas that apply to the same value
// and passed, as unevaluatedProperties and unevaluatedItems need them.
type Eval struct {
	All  bool // every member or element
	upTo int  // every element before upTo (prefixItems)
	bits [2]uint64
	more []uint64 // positions from 128 on
}

// Set records position i.
func (e *Eval) Set(i int) {
	if i < 128 {
		e.bits[i>>6] |= 1 << uint(i&63)
		return
	}
	w := (i - 128) >> 6
	for len(e.more) <= w {
		e.more = append(e.more, 0)
	}
	e.more[w] |= 1 << uint(i&63)
}

// Has reports whether position i was evaluated.
func (e *Eval) Has(i int) bool {
	switch {
	case e.All || i < e.upTo:
		return true
	case i < 128:
		return e.bits[i>>6]&(1<<uint(i&63)) != 0
	}
	w := (i - 128) >> 6
	return w < len(e.more) && e.more[w]&(1<<uint(i&63)) != 0
}

// Prefix records the positions before n.
func (e *Eval) Prefix(n int) { e.upTo = max(e.upTo, n) }

// Merge adds what o recorded.
func (e *Eval) Merge(o *Eval) {
	e.All = e.All || o.All
	e.upTo = max(e.upTo, o.upTo)
	e.bits[0] |= o.bits[0]
	e.bits[1] |= o.bits[1]
	for i, w := range o.more {
		if w == 0 {
			continue
		}
		for len(e.more) <= i {
			e.more = append(e.more, 0)
		}
		e.more[i] |= w
	}
}

// number is a JSON number's text read as sign, digits and exponent without
// copying: the value is 0.d1d2d3... × 10^exp over the digits of int and
// frac taken together, with the leading and trailing zeros skipped (lead
// and trail count them).
type number struct {
	neg       bool
	int, frac string
	lead, n   int // the significant digits are digits[lead : lead+n]
	exp       int // the value is 0.(significant digits) × 10^exp
}

// digit returns significant digit i.
func (x *number) digit(i int) byte {
	i += x.lead
	if i < len(x.int) {
		return x.int[i] - '0'
	}
	return x.frac[i-len(x.int)] - '0'
}

// parseNumber reads a JSON number text; ok is false when it is not one.
func parseNumber(text string) (x number, ok bool) {
	s := text
	if s != "" && s[0] == '-' {
		x.neg, s = true, s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	x.int, s = s[:i], s[i:]
	if x.int == "" {
		return x, false
	}
	if s != "" && s[0] == '.' {
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		x.frac, s = s[1:j], s[j:]
	}
	e := 0
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		n, err := strconv.Atoi(s[1:])
		if err != nil {
			// Beyond int: the exponent alone decides; clamp it.
			n = 1 << 40
			if len(s) > 1 && s[1] == '-' {
				n = -n
			}
		}
		e, s = n, ""
	}
	if s != "" {
		return x, false
	}
	total := len(x.int) + len(x.frac)
	for x.lead < total && x.digitAt(x.lead) == 0 {
		x.lead++
	}
	end := total
	for end > x.lead && x.digitAt(end-1) == 0 {
		end--
	}
	x.n = end - x.lead
	x.exp = e + len(x.int) - x.lead
	return x, true
}

func (x *number) digitAt(i int) byte {
	if i < len(x.int) {
		return x.int[i] - '0'
	}
	return x.frac[i-len(x.int)] - '0'
}

// MultipleOf reports whether the JSON number text is an integer multiple
// of m (a positive number's text), exactly: 0.3 is a multiple of 0.1, and
// 1e308 of 3 is not decided by float64 rounding.
func MultipleOf(text []byte, m string) bool {
	x, ok := parseNumber(bytesString(text))
	y, ok2 := parseNumber(m)
	if !ok || !ok2 || y.n == 0 {
		return false
	}
	if x.n == 0 {
		return true
	}
	// x = X × 10^(x.exp - x.n), m = M × 10^(y.exp - y.n) with X and M the
	// significant digits as integers; x/m = X × 10^k / M.
	k := (x.exp - x.n) - (y.exp - y.n)
	if k < 0 {
		// X has no trailing zero, so 10^-k does not divide it.
		return false
	}
	if y.n > 19 {
		return multipleOfBig(&x, &y, k)
	}
	var mod uint64
	for i := 0; i < y.n; i++ {
		mod = mod*10 + uint64(y.digit(i))
	}
	// X mod M, digit by digit, then times 10^k mod M.
	var r uint64
	for i := 0; i < x.n; i++ {
		r = mulAddMod(r, 10, uint64(x.digit(i)), mod)
	}
	if r == 0 {
		return true
	}
	p, base := uint64(1)%mod, uint64(10)%mod
	for e := k; e > 0 && p != 0; e >>= 1 {
		if e&1 == 1 {
			p = mulAddMod(p, base, 0, mod)
		}
		base = mulAddMod(base, base, 0, mod)
	}
	return mulAddMod(r, p, 0, mod) == 0
}

// mulAddMod returns (a*b + c) mod m without overflow (a, b, c < m).
func mulAddMod(a, b, c, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	lo, carry := bits.Add64(lo, c, 0)
	hi += carry
	return bits.Rem64(hi, lo, m)
}

// multipleOfBig is MultipleOf for a divisor of more than 19 digits.
func multipleOfBig(x, y *number, k int) bool {
	digits := func(n *number) *big.Int {
		b := make([]byte, n.n)
		for i := range b {
			b[i] = '0' + n.digit(i)
		}
		v, _ := new(big.Int).SetString(string(b), 10)
		return v
	}
	X, M := digits(x), digits(y)
	X.Mul(X, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), M))
	return X.Mod(X, M).Sign() == 0
}

// MultipleOfInt is MultipleOf for an int64.
func MultipleOfInt(v int64, m string) bool {
	var buf [24]byte
	return MultipleOf(strconv.AppendInt(buf[:0], v, 10), m)
}

// MultipleOfFloat is MultipleOf for a float64, read as the shortest
// decimal that rounds to it (what the encoder writes).
func MultipleOfFloat(v float64, m string) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	var buf [32]byte
	return MultipleOf(strconv.AppendFloat(buf[:0], v, 'e', -1, 64), m)
}

// bytesString views b as a string without copying; the caller keeps b
// unchanged while the string is in use.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// UniqueItems looks for two equal elements (by JSON value: numbers by
// exact value, objects in any member order) in the array at d's position,
// without moving d. It returns their positions, or ok false when all are
// distinct or the value is not an array.
func UniqueItems(d *Decoder) (i, j int, ok bool) {
	outer := d.Sub()
	if !outer.Array() {
		return 0, 0, false
	}
	first := true
	for i = 0; outer.NextElem(&first); i++ {
		// Compare element i with every earlier one.
		inner := d.Sub()
		inner.Array()
		f2 := true
		for j = 0; j < i && inner.NextElem(&f2); j++ {
			a, b := inner.Sub(), outer.Sub()
			if equalValue(&a, &b) {
				return j, i, true
			}
			inner.Skip()
		}
		outer.Skip()
		if outer.Failed() {
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// FloatExact reads a number like FloatBounds, and checks multipleOf on
// the number's text where the float64 would hide a violation: a number
// with more digits than a float64 keeps can round onto a multiple
// (12345678901234567890 is not a multiple of 7; its float64 is). The
// violations the float64 shows are left to Validate.
func (d *Decoder) FloatExact(minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf string) float64 {
	d.Peek()
	off := d.Pos
	s := d.Sub()
	text, ok := s.Number()
	f := d.FloatBounds(minimum, maximum, exclusiveMinimum, exclusiveMaximum)
	if ok && !d.Failed() && !MultipleOf(text, multipleOf) && MultipleOfFloat(f, multipleOf) {
		d.Violate(off, "multipleOf", "must be a multiple of "+multipleOf+", got "+QuoteNum(text))
	}
	return f
}

// FloatExactPtr is FloatExact into a new variable.
func (d *Decoder) FloatExactPtr(minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf string) *float64 {
	return d.FloatSlot(d.FloatExact(minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf))
}
