package codec

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Encoder appends JSON to buf. The first problem (a NaN, malformed raw
// JSON) is kept in err and reported when encoding ends.
type Encoder struct {
	Buf []byte
	Err error
	// keys is where maps' keys are sorted (SortedKeys): an encoder
	// that is reused (Validate's) sorts without allocating.
	Keys []string
	// scratch is the room validJSON unescapes member names in.
	scratch scratch
}

// SortedKeys appends the keys of m to e.keys, sorted, and returns them
// with the length of e.keys before; the caller sets e.keys back to that
// length when it is done with them. A map nested in one of the values
// appends after them, so the slice returned stays valid.
func SortedKeys[V any](e *Encoder, m map[string]V) ([]string, int) {
	n := len(e.Keys)
	for k := range m {
		e.Keys = append(e.Keys, k)
	}
	keys := e.Keys[n:]
	slices.Sort(keys)
	return keys, n
}

// EncodeError is a Go value that has no JSON form: a NaN or infinite
// number, or raw JSON bytes that are not valid JSON.
type EncodeError struct {
	Msg string
}

func (e *EncodeError) Error() string { return "cannot encode as JSON: " + e.Msg }

func (e *Encoder) Fail(msg string) {
	if e.Err == nil {
		e.Err = &EncodeError{Msg: msg}
	}
}

// Comma writes the separator before a member or element unless it is the
// first in its object or array.
func (e *Encoder) Comma() {
	if n := len(e.Buf); n > 0 {
		if c := e.Buf[n-1]; c != '{' && c != '[' {
			e.Buf = append(e.Buf, ',')
		}
	}
}

// Name writes the member name, given already quoted and with its colon
// (`"name":`).
func (e *Encoder) Name(quoted string) {
	e.Comma()
	e.Buf = append(e.Buf, quoted...)
}

// Key writes a member name that is only known at run time.
func (e *Encoder) Key(k string) {
	e.Comma()
	e.Str(k)
	e.Buf = append(e.Buf, ':')
}

// Str writes a quoted string, escaped as encoding/json does it, except
// that <, > and & are kept as they are.
func (e *Encoder) Str(s string) {
	b := append(e.Buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', byte('8'+r-'\u2028'))
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	e.Buf = append(b, '"')
}

// Int writes an integer.
func (e *Encoder) Int(n int64) { e.Buf = strconv.AppendInt(e.Buf, n, 10) }

// Float writes a number the way encoding/json does.
func (e *Encoder) Float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.Fail("unsupported number " + strconv.FormatFloat(f, 'g', -1, 64))
		e.Buf = append(e.Buf, '0')
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.Buf, f, format, -1, 64)
	if format == 'e' {
		// Shorten e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.Buf = b
}

// Bool writes true or false.
func (e *Encoder) Bool(v bool) {
	if v {
		e.Buf = append(e.Buf, "true"...)
	} else {
		e.Buf = append(e.Buf, "false"...)
	}
}

// Null writes null.
func (e *Encoder) Null() { e.Buf = append(e.Buf, "null"...) }

// Raw writes JSON bytes as they are, after checking them; nil writes null.
func (e *Encoder) Raw(b []byte) {
	if b == nil {
		e.Null()
		return
	}
	if !e.ValidJSON(b) {
		e.Fail("raw value is not valid JSON: " + Quote(string(b)))
		e.Null()
		return
	}
	e.Buf = append(e.Buf, b...)
}

// ValidJSON is the function ValidJSON with the encoder's scratch space for the
// member names it unescapes (to find duplicates), so that an encoder that
// is reused (Validate's) allocates nothing for them.
func (e *Encoder) ValidJSON(b []byte) bool {
	d := Decoder{Data: b, scratch: e.scratch.start(), grow: &e.scratch}
	d.Skip()
	return d.Finish() == nil
}

// ValidJSON reports whether b is exactly one valid JSON value (by the
// decoder's rules), with optional surrounding whitespace.
func ValidJSON(b []byte) bool {
	d := Decoder{Data: b}
	d.Skip()
	return d.Finish() == nil
}

// Result returns the encoded bytes, or dst and the first problem.
func (e *Encoder) Result(dst []byte) ([]byte, error) {
	if e.Err != nil {
		return dst, e.Err
	}
	return e.Buf, nil
}
