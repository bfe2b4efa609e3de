package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind int

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Value is a parsed JSON value that keeps what encoding/json into `any`
// loses: the order of object members, the exact text of numbers, and the
// JSON pointer of every node.
type Value struct {
	Kind    Kind
	Pointer string // JSON pointer of this value within its document ("" for the root)
	Offset  int64  // byte offset where the value starts

	Bool    bool
	Num     string // exact text of a number
	Str     string
	Items   []*Value
	Members []Member
}

// Member is one member of a JSON object.
type Member struct {
	Name  string
	Value *Value
}

// Get returns the member called name, or nil.
func (v *Value) Get(name string) *Value {
	for _, m := range v.Members {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// JSON returns the compact JSON text of v.
func (v *Value) JSON() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v *Value) write(b *strings.Builder) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Num)
	case String:
		q, _ := json.Marshal(v.Str)
		b.Write(q)
	case Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.write(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(m.Name)
			b.Write(q)
			b.WriteByte(':')
			m.Value.write(b)
		}
		b.WriteByte('}')
	}
}

// Equal reports whether a and b are the same JSON value: numbers compare by
// exact decimal value and object members in any order.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case Number:
		return NumberCmp(a.Num, b.Num) == 0
	case String:
		return a.Str == b.Str
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	default:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			o := b.Get(m.Name)
			if o == nil || !Equal(m.Value, o) {
				return false
			}
		}
		return true
	}
}

// equalKey returns a string that two values share exactly when Equal says
// they are equal, so that a set of keys finds equal values in linear time.
func equalKey(v *Value) string {
	var b strings.Builder
	v.writeKey(&b)
	return b.String()
}

func (v *Value) writeKey(b *strings.Builder) {
	switch v.Kind {
	case Null:
		b.WriteByte('n')
	case Bool:
		if v.Bool {
			b.WriteByte('t')
		} else {
			b.WriteByte('f')
		}
	case Number:
		b.WriteByte('#')
		writeKeyString(b, canonicalNumber(v.Num))
	case String:
		b.WriteByte('s')
		writeKeyString(b, v.Str)
	case Array:
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(len(v.Items)))
		for _, it := range v.Items {
			it.writeKey(b)
		}
	case Object:
		// Members in any order: sorted by name (names are unique).
		ms := slices.Clone(v.Members)
		slices.SortFunc(ms, func(x, y Member) int { return strings.Compare(x.Name, y.Name) })
		b.WriteByte('{')
		b.WriteString(strconv.Itoa(len(ms)))
		for _, m := range ms {
			writeKeyString(b, m.Name)
			m.Value.writeKey(b)
		}
	}
}

// writeKeyString writes s with its length first, so that keys do not run
// into each other.
func writeKeyString(b *strings.Builder, s string) {
	b.WriteString(strconv.Itoa(len(s)))
	b.WriteByte(':')
	b.WriteString(s)
}

// canonicalNumber spells a JSON number text by its exact value: the
// significant digits and the power of ten of the first one ("100", "1e2"
// and "1.00e2" are all "1e2"; "-0" is "0"). A text that is not a JSON number
// is returned as it is, which NumberCmp compares as text too.
func canonicalNumber(n string) string {
	s := n
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return n
	}
	e := new(big.Int)
	if hasExp {
		if _, ok := e.SetString(strings.TrimPrefix(exp, "+"), 10); !ok {
			return n
		}
	}
	digits := intPart + frac
	lead := len(digits) - len(strings.TrimLeft(digits, "0"))
	digits = strings.TrimRight(digits[lead:], "0")
	if digits == "" {
		return "0"
	}
	// The value is 0.digits × 10^(exp + len(intPart) - lead).
	e.Add(e, big.NewInt(int64(len(intPart)-lead)))
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + digits + "e" + e.String()
}

// NumberCmp compares two JSON number texts exactly.
func NumberCmp(a, b string) int {
	ra, ok1 := new(big.Rat).SetString(a)
	rb, ok2 := new(big.Rat).SetString(b)
	if !ok1 || !ok2 {
		return strings.Compare(a, b)
	}
	return ra.Cmp(rb)
}

// IsInteger reports whether the JSON number text n has an integral value
// (JSON Schema counts 2.0 as an integer).
func IsInteger(n string) bool {
	r, ok := new(big.Rat).SetString(n)
	return ok && r.IsInt()
}

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// Parse parses one JSON document. Duplicate member names are an error, since
// two readers of the schema could disagree on which one counts. Errors carry
// the line and column.
func Parse(data []byte) (*Value, error) {
	p := &parser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, p.errAtPtr("", p.dec.InputOffset(), "unexpected data after the top-level value")
	}
	return v, nil
}

type parser struct {
	data []byte
	dec  *json.Decoder
	ptr  string // pointer of the value being read, for errors
}

// PosError is a JSON syntax problem with its position.
type PosError struct {
	Pointer   string // the innermost value being read
	Line, Col int
	Offset    int64
	Msg       string
}

func (e *PosError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

func (p *parser) errAt(off int64, format string, args ...any) error {
	return p.errAtPtr(p.ptr, off, format, args...)
}

func (p *parser) errAtPtr(ptr string, off int64, format string, args ...any) error {
	if off > int64(len(p.data)) {
		off = int64(len(p.data))
	}
	line := 1 + bytes.Count(p.data[:off], []byte{'\n'})
	col := int(off) - bytes.LastIndexByte(p.data[:off], '\n')
	return &PosError{Pointer: ptr, Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return p.errAt(se.Offset, "%s", se.Error())
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return p.errAt(int64(len(p.data)), "unexpected end of JSON input")
	}
	return p.errAt(p.dec.InputOffset(), "%s", err.Error())
}

func (p *parser) value(ptr string, depth int) (*Value, error) {
	if depth > maxDepth {
		return nil, p.errAt(p.dec.InputOffset(), "nesting deeper than %d", maxDepth)
	}
	p.ptr = ptr
	off := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	// InputOffset before Token points at the separator; skip to the value.
	for off < int64(len(p.data)) && strings.IndexByte(" \t\r\n,:", p.data[off]) >= 0 {
		off++
	}
	v := &Value{Pointer: ptr, Offset: off}
	switch t := tok.(type) {
	case nil:
		v.Kind = Null
	case bool:
		v.Kind, v.Bool = Bool, t
	case json.Number:
		v.Kind, v.Num = Number, string(t)
	case string:
		v.Kind, v.Str = String, t
	case json.Delim:
		switch t {
		case '[':
			v.Kind = Array
			for i := 0; p.dec.More(); i++ {
				it, err := p.value(ptr+"/"+strconv.Itoa(i), depth+1)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, it)
			}
			p.ptr = ptr
			if _, err := p.dec.Token(); err != nil {
				return nil, p.syntax(err)
			}
		case '{':
			v.Kind = Object
			v.Members = []Member{}
			seen := map[string]bool{}
			for p.dec.More() {
				p.ptr = ptr
				koff := p.dec.InputOffset()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.syntax(err)
				}
				k := kt.(string)
				for koff < int64(len(p.data)) && strings.IndexByte(" \t\r\n,", p.data[koff]) >= 0 {
					koff++
				}
				if seen[k] {
					return nil, p.errAt(koff, "duplicate member %q in object %s", k, displayPointer(ptr))
				}
				seen[k] = true
				mv, err := p.value(ptr+"/"+EscapePointer(k), depth+1)
				if err != nil {
					return nil, err
				}
				v.Members = append(v.Members, Member{Name: k, Value: mv})
			}
			p.ptr = ptr
			if _, err := p.dec.Token(); err != nil {
				return nil, p.syntax(err)
			}
		default:
			return nil, p.errAt(off, "unexpected %q", t)
		}
	}
	return v, nil
}

// EscapePointer escapes one JSON pointer reference token (RFC 6901).
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// UnescapePointer undoes EscapePointer.
func UnescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

func displayPointer(ptr string) string {
	if ptr == "" {
		return "at the top level"
	}
	return ptr
}
