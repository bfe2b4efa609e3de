//lint:file-ignore U1000 the runtime is for generated code; gen/rt alone does not use all of it

package rt

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encoder appends JSON to buf. The first problem (a NaN, malformed raw
// JSON) is kept in err and reported when encoding ends.
type encoder struct {
	buf []byte
	err error
	// keys is where maps' keys are sorted (rtSortedKeys): an encoder
	// that is reused (Validate's) sorts without allocating.
	keys []string
	// scratch is the room validJSON unescapes member names in.
	scratch rtScratch
}

// rtSortedKeys appends the keys of m to e.keys, sorted, and returns them
// with the length of e.keys before; the caller sets e.keys back to that
// length when it is done with them. A map nested in one of the values
// appends after them, so the slice returned stays valid.
func rtSortedKeys[V any](e *encoder, m map[string]V) ([]string, int) {
	n := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys := e.keys[n:]
	slices.Sort(keys)
	return keys, n
}

// EncodeError is a Go value that has no JSON form: a NaN or infinite
// number, or raw JSON bytes that are not valid JSON.
type EncodeError struct {
	Msg string
}

func (e *EncodeError) Error() string { return "cannot encode as JSON: " + e.Msg }

func (e *encoder) fail(msg string) {
	if e.err == nil {
		e.err = &EncodeError{Msg: msg}
	}
}

// comma writes the separator before a member or element unless it is the
// first in its object or array.
func (e *encoder) comma() {
	if n := len(e.buf); n > 0 {
		if c := e.buf[n-1]; c != '{' && c != '[' {
			e.buf = append(e.buf, ',')
		}
	}
}

// name writes the member name, given already quoted and with its colon
// (`"name":`).
func (e *encoder) name(quoted string) {
	e.comma()
	e.buf = append(e.buf, quoted...)
}

// key writes a member name that is only known at run time.
func (e *encoder) key(k string) {
	e.comma()
	e.string(k)
	e.buf = append(e.buf, ':')
}

// string writes a quoted string, escaped as encoding/json does it, except
// that <, > and & are kept as they are.
func (e *encoder) string(s string) {
	b := append(e.buf, '"')
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
	e.buf = append(b, '"')
}

// int writes an integer.
func (e *encoder) int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

// float writes a number the way encoding/json does.
func (e *encoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.fail("unsupported number " + strconv.FormatFloat(f, 'g', -1, 64))
		e.buf = append(e.buf, '0')
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, 64)
	if format == 'e' {
		// Shorten e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
}

// bool writes true or false.
func (e *encoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, "true"...)
	} else {
		e.buf = append(e.buf, "false"...)
	}
}

// null writes null.
func (e *encoder) null() { e.buf = append(e.buf, "null"...) }

// raw writes JSON bytes as they are, after checking them; nil writes null.
func (e *encoder) raw(b []byte) {
	if b == nil {
		e.null()
		return
	}
	if !e.validJSON(b) {
		e.fail("raw value is not valid JSON: " + rtQuote(string(b)))
		e.null()
		return
	}
	e.buf = append(e.buf, b...)
}

// validJSON is rtValidJSON with the encoder's scratch space for the
// member names it unescapes (to find duplicates), so that an encoder that
// is reused (Validate's) allocates nothing for them.
func (e *encoder) validJSON(b []byte) bool {
	d := decoder{data: b, scratch: e.scratch.start(), grow: &e.scratch}
	d.skip()
	return d.finish() == nil
}

// rtValidJSON reports whether b is exactly one valid JSON value (by the
// decoder's rules), with optional surrounding whitespace.
func rtValidJSON(b []byte) bool {
	d := decoder{data: b}
	d.skip()
	return d.finish() == nil
}

// result returns the encoded bytes, or dst and the first problem.
func (e *encoder) result(dst []byte) ([]byte, error) {
	if e.err != nil {
		return dst, e.err
	}
	return e.buf, nil
}
