package codec

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds nesting like encoding/json does.
const maxDepth = 10000

// Decoder reads one JSON document in a single pass. Strings that need no
// unescaping are views into the decoder's private copy of the input, so a
// decoded value shares that one buffer.
//
// Problems are of two kinds. A syntax problem (malformed JSON, invalid
// UTF-8, a duplicate member name, too deep nesting) stops decoding. A
// value that the Go type cannot hold (a number where a string goes, null
// for a non-nullable member, a wrong constant) is recorded, skipped, and
// decoding goes on, so one error lists them all.
type Decoder struct {
	Data  []byte
	Pos   int
	depth int
	Errs  []decodeViolation
	// moreErrs counts the violations found past maxKeptViolations.
	moreErrs int
	syntax   *SyntaxError
	Key      string // name of the member just read by member()
	KeyPos   int    // offset of that name's opening quote
	scratch  []byte // room for unescaped strings
	// grow is set while Validate reads JSON (Validator.Reader), whose strings
	// are only looked at: sub decoders use the rest of the scratch space,
	// and grow learns how much room was missing, so that the next reading
	// starts with enough and allocates nothing.
	grow *scratch
	// OneOfConflict is set when a oneOf union matched more than one branch;
	// OneOfUnsure when it matched one, but a branch it did not match read
	// a number beyond the range of its Go type (the schema's type may
	// allow the number, and then that branch matches too).
	OneOfConflict, OneOfUnsure bool
	// beyond is set when a number was beyond the range of its Go type.
	beyond bool
	// allowDup lets skip accept duplicate member names (splitting a batch
	// whose items are checked one by one).
	AllowDup bool
	// Slabs for the variables of optional members (*string, *int64,
	// *float64, *bool): one allocation serves several members. A slab is
	// only appended to, so earlier addresses stay valid; a full one is
	// replaced, not grown.
	strs  []string
	nums  []uint64
	bools []bool
}

// decodeViolation is recorded at a byte offset; its pointer is worked out
// when decoding ends.
type decodeViolation struct {
	off     int
	suffix  string // pointer segment appended to the offset's pointer
	keyword string
	message string
}

// Init prepares d to decode a private copy of b.
func (d *Decoder) Init(b []byte) {
	d.Data = append(make([]byte, 0, len(b)), b...)
}

// InitShared prepares d to read b in place; b must not change while the
// strings decoded from it are in use.
func (d *Decoder) InitShared(b []byte) { d.Data = b }

// Finish checks that only whitespace follows the value and returns the
// error to report, if any.
func (d *Decoder) Finish() error {
	if d.syntax == nil {
		if c := d.Peek(); c != 0 || d.Pos < len(d.Data) {
			d.Fail("unexpected data after the top-level value")
		}
	}
	if d.syntax != nil {
		return d.syntax
	}
	if d.ErrCount() == 0 {
		return nil
	}
	return d.Violations()
}

// Fail records a syntax error; decoding stops.
func (d *Decoder) Fail(msg string) {
	if d.syntax == nil {
		d.syntax = &SyntaxError{Offset: int64(d.Pos), Msg: msg}
	}
	d.Pos = len(d.Data)
}

func (d *Decoder) Failed() bool { return d.syntax != nil }

// Violate records a value problem at offset off.
func (d *Decoder) Violate(off int, keyword, message string) {
	if len(d.Errs) >= maxKeptViolations {
		d.moreErrs++
		return
	}
	d.Errs = append(d.Errs, decodeViolation{off: off, keyword: keyword, message: message})
}

// Peek skips whitespace and returns the next byte, or 0 at the end.
func (d *Decoder) Peek() byte {
	for d.Pos < len(d.Data) {
		switch c := d.Data[d.Pos]; c {
		case ' ', '\t', '\n', '\r':
			d.Pos++
		default:
			return c
		}
	}
	return 0
}

// KindOf names the JSON kind that starts with c, for messages.
func KindOf(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case 0:
		return "nothing"
	}
	if c == '-' || (c >= '0' && c <= '9') {
		return "number"
	}
	return "invalid JSON"
}

// Mismatch records that the value at the current position is not of the
// wanted kind, and skips it.
func (d *Decoder) Mismatch(want string) {
	c := d.Peek()
	if c == 0 {
		d.Fail("unexpected end of JSON input")
		return
	}
	off := d.Pos
	d.Skip()
	if d.Failed() {
		return
	}
	d.Violate(off, "type", "expected "+want+", got "+KindOf(c))
}

// Literal consumes the literal lit (true, false, null).
func (d *Decoder) Literal(lit string) bool {
	if len(d.Data)-d.Pos >= len(lit) && string(d.Data[d.Pos:d.Pos+len(lit)]) == lit {
		d.Pos += len(lit)
		return true
	}
	d.Fail("invalid literal")
	return false
}

// Null consumes a null if one comes next.
func (d *Decoder) Null() bool {
	if d.Peek() == 'n' {
		return d.Literal("null")
	}
	return false
}

// Object starts reading an object. If the value is not an object it is
// recorded as a type violation and skipped, and object returns false.
func (d *Decoder) Object() bool {
	if d.Peek() != '{' {
		d.Mismatch("object")
		return false
	}
	d.depth++
	if d.depth > maxDepth {
		d.Fail("nesting deeper than 10000")
		return false
	}
	d.Pos++
	return true
}

// NextMember advances to the next member of the object being read: it reads
// the name into d.key and the colon, and returns true; or it reads the
// closing brace and returns false. first must start true.
func (d *Decoder) NextMember(first *bool) bool {
	c := d.Peek()
	if *first {
		*first = false
		if c == '}' {
			d.Pos++
			d.depth--
			return false
		}
	} else {
		switch c {
		case ',':
			d.Pos++
			c = d.Peek()
		case '}':
			d.Pos++
			d.depth--
			return false
		default:
			d.Fail("expected ',' or '}' after object member")
			return false
		}
	}
	if c != '"' {
		d.Fail("expected a member name")
		return false
	}
	d.KeyPos = d.Pos
	k, ok := d.ReadStr()
	if !ok {
		return false
	}
	if d.Peek() != ':' {
		d.Fail("expected ':' after member name")
		return false
	}
	d.Pos++
	d.Key = k
	return true
}

// Dup records a duplicate member name as a syntax error.
func (d *Decoder) Dup(name string) {
	if d.syntax == nil {
		d.Fail("duplicate member " + Quote(name))
		d.syntax.Duplicate = strings.Clone(name)
	}
	d.Pos = len(d.Data)
}

// Array starts reading an array, like Object.
func (d *Decoder) Array() bool {
	if d.Peek() != '[' {
		d.Mismatch("array")
		return false
	}
	d.depth++
	if d.depth > maxDepth {
		d.Fail("nesting deeper than 10000")
		return false
	}
	d.Pos++
	return true
}

// NextElem advances to the next element of the array being read; it returns
// false after the closing bracket. first must start true.
func (d *Decoder) NextElem(first *bool) bool {
	c := d.Peek()
	if *first {
		*first = false
		if c == ']' {
			d.Pos++
			d.depth--
			return false
		}
		if c == 0 {
			d.Fail("unexpected end of JSON input")
			return false
		}
		return true
	}
	switch c {
	case ',':
		d.Pos++
		return true
	case ']':
		d.Pos++
		d.depth--
		return false
	}
	d.Fail("expected ',' or ']' after array element")
	return false
}

// Str reads a string value; another kind is a type violation.
func (d *Decoder) Str() string {
	if d.Peek() != '"' {
		d.Mismatch("string")
		return ""
	}
	s, _ := d.ReadStr()
	return s
}

// StrPtr reads a string into a new variable.
func (d *Decoder) StrPtr() *string {
	if len(d.strs) == cap(d.strs) {
		d.strs = make([]string, 0, 8)
	}
	d.strs = append(d.strs, d.Str())
	return &d.strs[len(d.strs)-1]
}

// ReadStr reads the string at d.Pos (which is '"') and reports whether it
// is well formed.
func (d *Decoder) ReadStr() (string, bool) {
	start := d.Pos + 1
	i := start
	data := d.Data
	for i < len(data) {
		c := data[i]
		if c == '"' {
			d.Pos = i + 1
			return unsafe.String(unsafe.SliceData(data[start:]), i-start), true
		}
		if c == '\\' {
			return d.StrSlow(start)
		}
		if c < 0x20 {
			d.Pos = i
			d.Fail("control character in string")
			return "", false
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.Pos = i
				d.Fail("invalid UTF-8 in string")
				return "", false
			}
			i += size
			continue
		}
		i++
	}
	d.Pos = len(data)
	d.Fail("unexpected end of JSON input in string")
	return "", false
}

// scratch is room for unescaped strings that readers reuse from one
// reading to the next (Validator.Reader). A decoder that finds too little
// room left allocates its own and adds its size to short; the next reading
// starts with that much more room, so the room grows linearly with what
// was missing and readings stop allocating.
type scratch struct {
	buf   []byte
	short int
}

// start returns the room for a new reading, grown by what the last one
// missed.
func (r *scratch) start() []byte {
	if r.short > 0 {
		r.buf = make([]byte, 0, cap(r.buf)+r.short)
		r.short = 0
	}
	return r.buf[:0]
}

// StrSlow unescapes a string into the scratch space.
func (d *Decoder) StrSlow(start int) (string, bool) {
	data := d.Data
	// Reserve room: the unescaped string is never longer than the escaped one.
	end := start
	for end < len(data) && data[end] != '"' {
		if data[end] == '\\' {
			end++
		}
		end++
	}
	need := end - start
	if cap(d.scratch)-len(d.scratch) < need {
		d.scratch = make([]byte, 0, max(need, 512))
		if d.grow != nil {
			d.grow.short += cap(d.scratch)
		}
	}
	out := d.scratch[len(d.scratch):len(d.scratch)]
	i := start
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.Pos = i + 1
			d.scratch = d.scratch[:len(d.scratch)+len(out)]
			if len(out) == 0 {
				return "", true
			}
			return unsafe.String(unsafe.SliceData(out), len(out)), true
		case c == '\\':
			if i+1 >= len(data) {
				d.Pos = i
				d.Fail("unexpected end of JSON input in string")
				return "", false
			}
			e := data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(data, i)
				if !ok {
					d.Pos = i
					d.Fail("invalid \\u escape in string")
					return "", false
				}
				i += 4
				if utf16.IsSurrogate(r) {
					// A valid pair makes one rune; anything else is U+FFFD, as
					// encoding/json does.
					if i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
						if r2, ok := hex4(data, i+2); ok {
							if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
								out = utf8.AppendRune(out, dec)
								i += 6
								continue
							}
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
			default:
				d.Pos = i - 1
				d.Fail("invalid escape in string")
				return "", false
			}
		case c < 0x20:
			d.Pos = i
			d.Fail("control character in string")
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				d.Pos = i
				d.Fail("invalid UTF-8 in string")
				return "", false
			}
			out = append(out, data[i:i+size]...)
			i += size
		default:
			out = append(out, c)
			i++
		}
	}
	d.Pos = len(data)
	d.Fail("unexpected end of JSON input in string")
	return "", false
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Number reads the text of a number, checking its grammar.
func (d *Decoder) Number() ([]byte, bool) {
	data := d.Data
	start := d.Pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		d.Pos = i
		d.Fail("invalid number")
		return nil, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.Pos = i
			d.Fail("invalid number")
			return nil, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.Pos = i
			d.Fail("invalid number")
			return nil, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	d.Pos = i
	return data[start:i], true
}

// IsNumberStart reports whether c can start a number.
func IsNumberStart(c byte) bool { return c == '-' || (c >= '0' && c <= '9') }

// Int reads an integer: any number with an integral value ("2.0" and
// "1e2" count), within the range of int64.
func (d *Decoder) Int() int64 {
	c := d.Peek()
	if !IsNumberStart(c) {
		d.Mismatch("integer")
		return 0
	}
	off := d.Pos
	text, ok := d.Number()
	if !ok {
		return 0
	}
	n, isInt, inRange := ParseInt(text)
	switch {
	case !isInt:
		d.Violate(off, "type", "expected integer, got "+QuoteNum(text))
	case !inRange:
		d.beyond = true
		d.Violate(off, "type", "integer "+QuoteNum(text)+" is out of the range of int64")
	}
	return n
}

// IntPtr reads an integer into a new variable.
func (d *Decoder) IntPtr() *int64 {
	if len(d.nums) == cap(d.nums) {
		d.nums = make([]uint64, 0, 8)
	}
	d.nums = append(d.nums, uint64(d.Int()))
	return (*int64)(unsafe.Pointer(&d.nums[len(d.nums)-1]))
}

func QuoteNum(text []byte) string {
	if len(text) > 40 {
		return string(text[:37]) + "..."
	}
	return string(text)
}

// ParseInt parses a JSON number text exactly as an integer.
func ParseInt(text []byte) (n int64, isInt, inRange bool) {
	neg := false
	i := 0
	if text[0] == '-' {
		neg = true
		i++
	}
	// Collect the significant digits and the decimal exponent.
	var digits [20]byte
	nd := 0       // digits kept (leading zeros dropped)
	overflow := 0 // integer digits beyond what fits
	exp := 0
	sawDot := false
	nonZeroDropped := false
	lastNZ := 0 // the place among the dropped digits of the last non-zero one
	for ; i < len(text); i++ {
		c := text[i]
		if c == '.' {
			sawDot = true
			continue
		}
		if c == 'e' || c == 'E' {
			break
		}
		if sawDot {
			exp--
		}
		if nd == 0 && c == '0' {
			continue
		}
		if nd < len(digits) {
			digits[nd] = c
			nd++
		} else {
			overflow++
			if c != '0' {
				nonZeroDropped = true
				lastNZ = overflow
			}
		}
	}
	exp += overflow
	if i < len(text) {
		// Exponent.
		i++
		eneg := false
		if text[i] == '+' || text[i] == '-' {
			eneg = text[i] == '-'
			i++
		}
		e := 0
		for ; i < len(text); i++ {
			if e < 1e8 {
				e = e*10 + int(text[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	// The kept digits end at 10^exp, and the m-th dropped digit is at
	// 10^(exp-m): a non-zero one below 10^0 (1.00000000000000000001,
	// 123456789012345678901.23) makes the number no integer.
	if nonZeroDropped && exp-lastNZ < 0 {
		return 0, false, false
	}
	// Drop trailing zeros of the significand into the exponent.
	for nd > 0 && digits[nd-1] == '0' {
		nd--
		exp++
	}
	if nd == 0 {
		if nonZeroDropped {
			return 0, exp >= 0, false
		}
		return 0, true, true
	}
	if exp < 0 {
		return 0, false, false
	}
	if nonZeroDropped || nd+exp > 19 {
		return 0, true, false
	}
	var u uint64
	for _, c := range digits[:nd] {
		u = u*10 + uint64(c-'0')
	}
	for range exp {
		u *= 10
	}
	if neg {
		if u > 1<<63 {
			return 0, true, false
		}
		return int64(-u), true, true
	}
	if u > math.MaxInt64 {
		return 0, true, false
	}
	return int64(u), true, true
}

// Float reads a number as a float64; one beyond float64's range is a
// violation.
func (d *Decoder) Float() float64 {
	f, _, _, _ := d.FloatText()
	return f
}

// FloatText reads a number as a float64 and returns its text and offset
// too; ok is false when it reported a mismatch, a syntax error or a number
// beyond float64's range.
func (d *Decoder) FloatText() (f float64, text []byte, off int, ok bool) {
	if !IsNumberStart(d.Peek()) {
		d.Mismatch("number")
		return 0, nil, 0, false
	}
	off = d.Pos
	text, ok = d.Number()
	if !ok {
		return 0, nil, 0, false
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), 64)
	if err != nil {
		d.beyond = true
		d.Violate(off, "type", "number "+QuoteNum(text)+" is out of the range of float64")
		return f, text, off, false
	}
	return f, text, off, true
}

// FloatPtr reads a number into a new variable.
func (d *Decoder) FloatPtr() *float64 {
	return d.FloatSlot(d.Float())
}

// FloatSlot stores f in the decoder's number slab and returns its address.
func (d *Decoder) FloatSlot(f float64) *float64 {
	if len(d.nums) == cap(d.nums) {
		d.nums = make([]uint64, 0, 8)
	}
	d.nums = append(d.nums, math.Float64bits(f))
	return (*float64)(unsafe.Pointer(&d.nums[len(d.nums)-1]))
}

// Bool reads true or false.
func (d *Decoder) Bool() bool {
	switch d.Peek() {
	case 't':
		return d.Literal("true")
	case 'f':
		d.Literal("false")
		return false
	}
	d.Mismatch("boolean")
	return false
}

// BoolPtr reads a boolean into a new variable.
func (d *Decoder) BoolPtr() *bool {
	if len(d.bools) == cap(d.bools) {
		d.bools = make([]bool, 0, 8)
	}
	d.bools = append(d.bools, d.Bool())
	return &d.bools[len(d.bools)-1]
}

// Raw returns the bytes of the next value, after checking its syntax.
func (d *Decoder) Raw() []byte {
	if d.Peek() == 0 {
		d.Fail("unexpected end of JSON input")
		return nil
	}
	start := d.Pos
	d.Skip()
	if d.Failed() {
		return nil
	}
	return d.Data[start:d.Pos:d.Pos]
}

// RawObject returns the bytes of the next value, which must be an object.
func (d *Decoder) RawObject() []byte {
	if d.Peek() != '{' {
		d.Mismatch("object")
		return nil
	}
	return d.Raw()
}

// Skip reads past the next value, checking its syntax, including UTF-8,
// nesting depth and duplicate member names, without recursion.
func (d *Decoder) Skip() {
	var sc *keyRefs
	d.skip(&sc)
	putKeyRefs(sc)
}

// skipKeysMax is how many names of one object skip compares one by one;
// beyond it the object's names go to a reused slice of hashes (see
// firstDup), checked when the object ends.
const skipKeysMax = 64

// skipFrame is an open object or array of skip.
type skipFrame struct {
	kstart int32 // this object's names start at keys[kstart] (or refs[kstart], many)
	flags  uint8
}

const (
	frameObject = 1 << iota
	frameFirst
	frameMany // the names are in the refs
	frameSet  // the names are in sets[depth] (inputs too large for refs)
)

// skipKey is a name of an object skip has open.
type skipKey struct {
	name string
	off  int
}

func (d *Decoder) skip(scp **keyRefs) {
	// The stack and the names start in arrays on the goroutine's stack;
	// deeper or larger, they move to a reused scratch (*scp), so that
	// nesting costs no allocation per value read.
	var stackBuf [16]skipFrame
	stack := stackBuf[:0]
	var keyBuf [32]skipKey
	keys := keyBuf[:0]
	scratch := func() *keyRefs {
		if *scp == nil {
			*scp = getKeyRefs()
		}
		return *scp
	}
	for {
		c := d.Peek()
		switch {
		case c == '{' || c == '[':
			if d.depth+len(stack)+1 > maxDepth {
				d.Fail("nesting deeper than 10000")
				return
			}
			d.Pos++
			if len(stack) == cap(stack) {
				sc := scratch()
				sc.frames = append(make([]skipFrame, 0, 2*cap(stack)+64), stack...)
				stack = sc.frames
			}
			fl := uint8(frameFirst)
			if c == '{' {
				fl |= frameObject
			}
			stack = append(stack, skipFrame{kstart: int32(len(keys)), flags: fl})
		case c == '"':
			if _, ok := d.ReadStr(); !ok {
				return
			}
		case c == 't':
			if !d.Literal("true") {
				return
			}
		case c == 'f':
			if !d.Literal("false") {
				return
			}
		case c == 'n':
			if !d.Literal("null") {
				return
			}
		case IsNumberStart(c):
			if _, ok := d.Number(); !ok {
				return
			}
		case c == 0:
			d.Fail("unexpected end of JSON input")
			return
		default:
			d.Fail("invalid character " + strconv.QuoteRune(rune(c)) + " looking for a value")
			return
		}
		// After a value (or an opening bracket), find the next value.
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			c := d.Peek()
			if f.flags&frameObject != 0 {
				if c == '}' {
					switch {
					case f.flags&frameMany != 0:
						rs := (*scp).s
						if off := firstDup(rs[f.kstart:], func(r keyRef) string { return d.nameAt(r.off()) }); off >= 0 {
							d.dupAt(off)
							return
						}
						(*scp).s = rs[:f.kstart]
					case f.flags&frameSet != 0:
						delete((*scp).sets, len(stack))
					default:
						keys = keys[:f.kstart]
					}
					d.Pos++
					stack = stack[:len(stack)-1]
					continue
				}
				if f.flags&frameFirst == 0 {
					if c != ',' {
						d.Fail("expected ',' or '}' after object member")
						return
					}
					d.Pos++
					c = d.Peek()
				}
				f.flags &^= frameFirst
				if c != '"' {
					d.Fail("expected a member name")
					return
				}
				off := d.Pos
				k, ok := d.ReadStr()
				if !ok {
					return
				}
				switch {
				case d.AllowDup:
					// no duplicate check
				case f.flags&frameMany != 0:
					(*scp).add(makeRef(k, off))
				case f.flags&frameSet != 0:
					set := (*scp).sets[len(stack)]
					if set[k] {
						d.Dup(k)
						return
					}
					set[k] = true
				default:
					for _, x := range keys[f.kstart:] {
						if x.name == k {
							d.Dup(k)
							return
						}
					}
					if len(keys) == cap(keys) {
						sc := scratch()
						sc.keys = append(make([]skipKey, 0, 2*cap(keys)+64), keys...)
						keys = sc.keys
					}
					keys = append(keys, skipKey{k, off})
					if n := len(keys) - int(f.kstart); n > skipKeysMax {
						// Move this object's names out of keys: to the
						// refs, or for an input too large for them, a
						// set. Its nested objects, read later, push
						// theirs after.
						sc := scratch()
						kstart := f.kstart
						if refsFit(d.Data) {
							start := len(sc.s)
							for _, x := range keys[f.kstart:] {
								sc.add(makeRef(x.name, x.off))
							}
							f.kstart, f.flags = int32(start), f.flags|frameMany
						} else {
							if sc.sets == nil {
								sc.sets = map[int]map[string]bool{}
							}
							set := make(map[string]bool, 4*n)
							for _, x := range keys[f.kstart:] {
								set[x.name] = true
							}
							sc.sets[len(stack)] = set
							f.flags |= frameSet
						}
						keys = keys[:kstart]
					}
				}
				if d.Peek() != ':' {
					d.Fail("expected ':' after member name")
					return
				}
				d.Pos++
				break
			}
			if f.flags&frameFirst != 0 {
				f.flags &^= frameFirst
				if c == ']' {
					d.Pos++
					stack = stack[:len(stack)-1]
					continue
				}
				break
			}
			if c == ']' {
				d.Pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if c != ',' {
				d.Fail("expected ',' or ']' after array element")
				return
			}
			d.Pos++
			break
		}
		if len(stack) == 0 {
			return
		}
	}
}

// Sub returns a decoder for trying one branch of a union at the current
// position: it shares the data but keeps its own violations.
func (d *Decoder) Sub() Decoder {
	if d.grow != nil {
		return Decoder{Data: d.Data, Pos: d.Pos, depth: d.depth, grow: d.grow, scratch: d.scratch[len(d.scratch):]}
	}
	return Decoder{Data: d.Data, Pos: d.Pos, depth: d.depth}
}

// Adopt takes over the state of a sub decoder that was chosen.
func (d *Decoder) Adopt(s *Decoder) {
	d.Pos, d.depth = s.Pos, s.depth
	if s.scratch != nil {
		d.scratch = s.scratch
	}
	// The sub decoder filled slabs of its own; carry on with them.
	if s.strs != nil {
		d.strs = s.strs
	}
	if s.nums != nil {
		d.nums = s.nums
	}
	if s.bools != nil {
		d.bools = s.bools
	}
	d.Errs = append(d.Errs, s.Errs...)
	d.moreErrs += s.moreErrs
	if extra := len(d.Errs) - maxKeptViolations; extra > 0 {
		d.Errs = d.Errs[:maxKeptViolations]
		d.moreErrs += extra
	}
	d.beyond = d.beyond || s.beyond
	if s.syntax != nil && d.syntax == nil {
		d.syntax = s.syntax
	}
}

// PeekMember looks ahead in the object at the current position for the
// member called name and returns the offset of its value, or -1. It does not
// move d. Syntax problems are left for the real read to report.
func (d *Decoder) PeekMember(name string) int {
	s := d.Sub()
	if s.Peek() != '{' {
		return -1
	}
	s.Pos++
	s.depth++
	for first := true; s.NextMember(&first); {
		if s.Key == name {
			if s.Peek() == 0 {
				return -1 // truncated: the real read reports it
			}
			return s.Pos
		}
		s.Skip()
		if s.Failed() {
			return -1
		}
	}
	return -1
}

// PeekString returns the string value of member name of the object at the
// current position; found is false when the member is absent or not a
// string.
func (d *Decoder) PeekString(name string) (value string, found bool) {
	off := d.PeekMember(name)
	if off < 0 || d.Data[off] != '"' {
		return "", false
	}
	s := d.Sub()
	s.Pos = off
	v, ok := s.ReadStr()
	return v, ok
}

// PeekKeys returns a bit set of which of names (at most 64) are members of
// the object at the current position.
func (d *Decoder) PeekKeys(names []string) uint64 {
	s := d.Sub()
	if s.Peek() != '{' {
		return 0
	}
	s.Pos++
	s.depth++
	var set uint64
	for first := true; s.NextMember(&first); {
		if i := slices.Index(names, s.Key); i >= 0 {
			set |= 1 << uint(i)
		}
		s.Skip()
		if s.Failed() {
			return set
		}
	}
	return set
}

// Violations turns the recorded violations into a *ValidationError,
// working out each JSON pointer from its byte offset.
func (d *Decoder) Violations() error {
	errs := d.Errs
	if len(errs) > maxKeptViolations {
		errs = errs[:maxKeptViolations]
	}
	// The pointers of the violations, in one pass over the data in the
	// order of their offsets.
	order := make([]int, len(errs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return errs[a].off - errs[b].off })
	pointers := make([]string, len(errs))
	w := pointerWalker{d: Decoder{Data: d.Data}}
	for _, i := range order {
		pointers[i] = w.to(errs[i].off)
	}
	out := make([]Violation, len(errs))
	for i, v := range errs {
		p := pointers[i]
		if v.suffix != "" {
			p += "/" + EscapePointer(v.suffix)
		}
		out[i] = Violation{Pointer: p, Keyword: v.keyword, Message: v.message}
	}
	return &ValidationError{Violations: out, Omitted: d.ErrCount() - len(out)}
}

// maxKeptViolations bounds the violations a decoder keeps: past it, a
// message that breaks the schema everywhere costs a count, not a record
// (and a JSON pointer) for each.
const maxKeptViolations = 100

// ErrCount is the number of violations found, kept or not.
func (d *Decoder) ErrCount() int { return len(d.Errs) + d.moreErrs }

// pointerAt returns the JSON pointer of the value that starts at byte
// offset off of the (syntactically valid up to off) document data.
func pointerAt(data []byte, off int) string {
	w := pointerWalker{d: Decoder{Data: data}}
	return w.to(off)
}

// pointerWalker finds the JSON pointers of values at increasing offsets
// of one document in one pass.
type pointerWalker struct {
	d     Decoder
	stack []pointerFrame
	ended bool
}

type pointerFrame struct {
	object bool
	index  int
	key    string
}

// to returns the pointer of the value at off, which must not be before
// the offset of the previous call.
func (w *pointerWalker) to(off int) string {
	d := &w.d
	data := d.Data
	pointer := func() string {
		var b []byte
		for _, f := range w.stack {
			b = append(b, '/')
			if f.object {
				b = append(b, EscapePointer(f.key)...)
			} else {
				b = strconv.AppendInt(b, int64(f.index), 10)
			}
		}
		return string(b)
	}
	if w.ended {
		return ""
	}
	for {
		d.Peek()
		if d.Pos >= off || d.Pos >= len(data) {
			return pointer()
		}
		switch c := data[d.Pos]; c {
		case '{', '[':
			d.Pos++
			w.stack = append(w.stack, pointerFrame{object: c == '{', index: -1})
			if c == '[' {
				if d.Peek() != ']' {
					w.stack[len(w.stack)-1].index = 0
					continue
				}
			}
		case '"':
			d.ReadStr()
		case 't', 'f', 'n':
			for d.Pos < len(data) && data[d.Pos] >= 'a' && data[d.Pos] <= 'z' {
				d.Pos++
			}
		default:
			d.Number()
		}
		if d.Failed() {
			return pointer()
		}
		// Move to the next value.
		for len(w.stack) > 0 {
			f := &w.stack[len(w.stack)-1]
			c := d.Peek()
			if c == '}' || c == ']' {
				d.Pos++
				w.stack = w.stack[:len(w.stack)-1]
				continue
			}
			if c == ',' {
				d.Pos++
				c = d.Peek()
				if !f.object {
					f.index++
					break
				}
			}
			if f.object && c == '"' {
				k, _ := d.ReadStr()
				f.key = k
				d.Peek()
				d.Pos++ // ':'
			}
			break
		}
		if len(w.stack) == 0 {
			w.ended = true
			d.Peek()
			if d.Pos >= off {
				return ""
			}
			return pointer()
		}
	}
}

// FloatBounds reads a number like Float, and checks the bounds (empty
// when absent) exactly where float64 cannot: a number that rounds onto a
// bound ("1.00000000000000001" for a maximum of 1) is compared by its
// text. Values clearly inside or outside are left to Validate.
func (d *Decoder) FloatBounds(minimum, maximum, exclusiveMinimum, exclusiveMaximum string) float64 {
	f, text, off, ok := d.FloatText()
	if !ok {
		return f
	}
	check := func(bound, keyword, want string, bad func(int) bool) {
		if bound == "" {
			return
		}
		b, _ := strconv.ParseFloat(bound, 64)
		if f != b {
			return // float64 order agrees with the exact order
		}
		if bad(CmpNumber(text, bound)) {
			d.Violate(off, keyword, "must be "+want+" "+bound+", got "+QuoteNum(text))
		}
	}
	check(minimum, "minimum", ">=", func(c int) bool { return c < 0 })
	check(exclusiveMinimum, "exclusiveMinimum", ">", func(c int) bool { return c <= 0 })
	check(maximum, "maximum", "<=", func(c int) bool { return c > 0 })
	check(exclusiveMaximum, "exclusiveMaximum", "<", func(c int) bool { return c >= 0 })
	return f
}

// FloatBoundsPtr is FloatBounds into a new variable.
func (d *Decoder) FloatBoundsPtr(minimum, maximum, exclusiveMinimum, exclusiveMaximum string) *float64 {
	return d.FloatSlot(d.FloatBounds(minimum, maximum, exclusiveMinimum, exclusiveMaximum))
}
