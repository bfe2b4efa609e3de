package codec

import (
	"encoding/json"
	"errors"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Member is one member of a JSON object that the schema does not name.
type Member struct {
	Name  string
	Value json.RawMessage
}

// Members keeps the members of an object that its schema does not name,
// in order, so that they survive a decode and encode unchanged.
type Members []Member

// Has reports whether there is a member called name.
func (m Members) Has(name string) bool {
	for i := range m {
		if m[i].Name == name {
			return true
		}
	}
	return false
}

// Get returns the value of the member called name.
func (m Members) Get(name string) (json.RawMessage, bool) {
	for i := range m {
		if m[i].Name == name {
			return m[i].Value, true
		}
	}
	return nil, false
}

// Set sets the member called name, adding it at the end if it is new.
func (m *Members) Set(name string, value json.RawMessage) {
	for i := range *m {
		if (*m)[i].Name == name {
			(*m)[i].Value = value
			return
		}
	}
	*m = append(*m, Member{Name: name, Value: value})
}

// add appends a member while decoding, making room for a few at once.
func (m *Members) add(name string, value json.RawMessage) {
	if *m == nil {
		*m = make(Members, 0, 4)
	}
	*m = append(*m, Member{Name: name, Value: value})
}

// MemberIndex finds duplicate names among the undeclared members of one
// object while it is decoded, and sizes the object's Members. While the
// members are few, each new name is compared with those before it. At the
// memberScanMax+1st, the index reads the rest of the object ahead (a skip
// that only reads names): it counts the members, so that Members is
// allocated once at its final size, and finds the first repeated name
// among them by sorting their hashes (firstDup), so that the members after
// it are taken without a check, and the one that repeats a name is refused
// when decoding reaches it. Memory for it is a pooled slice, not a set
// that grows with the object. (If the read ahead finds a syntax error,
// decoding will stop there; until then the names go to a set of hashes.)
type MemberIndex struct {
	ahead  bool // the rest of the object was read ahead
	dupAt  int  // offset of the first repeated name's quote, or -1
	seed   maphash.Seed
	hashes map[uint64]struct{}
}

// memberScanMax is how many members the index compares one by one.
const memberScanMax = 32

// ExtraMember adds the member being read (d.key and its value) to m, the
// undeclared members of the object, unless m already has one of that name:
// that is a duplicate member, which stops decoding, and extraMember returns
// false. ix must belong to the same object and start zero.
func (d *Decoder) ExtraMember(m *Members, ix *MemberIndex) bool {
	k := d.Key
	switch {
	case ix.ahead:
		if d.KeyPos == ix.dupAt {
			d.Dup(k)
			return false
		}
	case ix.hashes != nil:
		h := maphash.String(ix.seed, k)
		if _, seen := ix.hashes[h]; !seen {
			ix.hashes[h] = struct{}{}
		} else if m.Has(k) {
			// A name seen before, or (chance 2^-64 a pair) another
			// name with the same hash: the scan tells them apart, once
			// for a duplicate, since it stops decoding.
			d.Dup(k)
			return false
		}
	case m.Has(k):
		d.Dup(k)
		return false
	case len(*m) >= memberScanMax:
		if !refsFit(d.Data) || !d.readAhead(m, ix) {
			ix.seed = maphash.MakeSeed()
			ix.hashes = make(map[uint64]struct{}, 4*len(*m))
			for i := range *m {
				ix.hashes[maphash.String(ix.seed, (*m)[i].Name)] = struct{}{}
			}
			ix.hashes[maphash.String(ix.seed, k)] = struct{}{}
		} else if d.KeyPos == ix.dupAt {
			d.Dup(k)
			return false
		}
	}
	m.add(k, d.Raw())
	return true
}

// readAhead reads the rest of the object whose member d.Key is being read
// (its value comes next) without decoding it: it grows m to hold every
// member left, and sets ix.dupAt to the offset of the first name that
// repeats an earlier one (of m, d.Key, or the names ahead), or -1. It
// returns false, and changes nothing, if the rest is not well-formed JSON.
func (d *Decoder) readAhead(mp *Members, ix *MemberIndex) bool {
	m := *mp
	r := Decoder{Data: d.Data, Pos: d.Pos, depth: d.depth, AllowDup: true}
	refs := getKeyRefs()
	defer putKeyRefs(refs)
	for i := range m {
		refs.add(makeRef(m[i].Name, refOther+i))
	}
	refs.add(makeRef(d.Key, d.KeyPos))
	n := 1
	for {
		r.Skip()
		if r.Failed() {
			return false
		}
		c := r.Peek()
		if c == '}' {
			break
		}
		if c != ',' {
			return false
		}
		r.Pos++
		if r.Peek() != '"' {
			return false
		}
		off := r.Pos
		k, ok := r.ReadStr()
		if !ok || r.Peek() != ':' {
			return false
		}
		r.Pos++
		refs.add(makeRef(k, off))
		n++
	}
	ix.dupAt = firstDup(refs.s, func(x keyRef) string {
		if x.off() >= refOther {
			return m[x.off()-refOther].Name
		}
		return d.nameAt(x.off())
	})
	ix.ahead = true
	*mp = slices.Grow(m, n)
	return true
}

// Delete removes the member called name.
func (m *Members) Delete(name string) {
	*m = slices.DeleteFunc(*m, func(x Member) bool { return x.Name == name })
}

// Kind is the JSON kind a multi-kind value (such as RequestId) holds; the
// zero Kind holds nothing.
type Kind uint8

// The JSON kinds.
const (
	KindNull Kind = iota + 1
	KindBoolean
	KindInteger
	KindNumber
	KindString
	KindArray
	KindObject
)

// String returns the kind's JSON Schema name ("string", "integer", ...);
// the zero Kind is "none".
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBoolean:
		return "boolean"
	case KindInteger:
		return "integer"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	case 0:
		return "none"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Once marks a declared member as read; a second one is a duplicate.
func (d *Decoder) Once(bits *uint64, mask uint64) bool {
	if *bits&mask != 0 {
		d.Dup(d.Key)
		return false
	}
	*bits |= mask
	return true
}

// ConstString reads a member whose value must be the string want.
func (d *Decoder) ConstString(want string) {
	if d.Peek() != '"' {
		d.Mismatch("string")
		return
	}
	off := d.Pos
	got, ok := d.ReadStr()
	if ok && got != want {
		d.Violate(off, "const", Quote(got)+" is not "+strconv.Quote(want))
	}
}

// ConstInt reads a member whose value must be the integer want.
func (d *Decoder) ConstInt(want int64) {
	c := d.Peek()
	off := d.Pos
	if !IsNumberStart(c) {
		d.Mismatch("integer")
		return
	}
	text, ok := d.Number()
	if !ok {
		return
	}
	if n, isInt, inRange := ParseInt(text); !isInt || !inRange || n != want {
		d.Violate(off, "const", string(text)+" is not "+strconv.FormatInt(want, 10))
	}
}

// ConstBool reads a member whose value must be want.
func (d *Decoder) ConstBool(want bool) {
	c := d.Peek()
	if c != 't' && c != 'f' {
		d.Mismatch("boolean")
		return
	}
	off := d.Pos
	if got := d.Bool(); got != want {
		d.Violate(off, "const", strconv.FormatBool(got)+" is not "+strconv.FormatBool(want))
	}
}

// ConstRaw reads a member whose value must equal the JSON text want.
func (d *Decoder) ConstRaw(want string) {
	d.Peek()
	off := d.Pos
	raw := d.Raw()
	if d.Failed() {
		return
	}
	if !JSONEqual(raw, []byte(want)) {
		d.Violate(off, "const", Quote(string(raw))+" is not "+want)
	}
}

// NotAllowed records a member that additionalProperties: false forbids
// and skips it.
func (d *Decoder) NotAllowed() {
	d.Peek()
	d.Violate(d.Pos, "additionalProperties", "member "+Quote(d.Key)+" is not allowed")
	d.Skip()
}

// What peekTag found.
const (
	TagAbsent = iota
	TagString
	tagOther
)

// PeekTag looks ahead for a union's discriminator member.
func (d *Decoder) PeekTag(name string) (string, int) {
	off := d.PeekMember(name)
	if off < 0 {
		return "", TagAbsent
	}
	if d.Data[off] != '"' {
		return "", tagOther
	}
	s := d.Sub()
	s.Pos = off
	v, ok := s.ReadStr()
	if !ok {
		return "", tagOther
	}
	return v, TagString
}

// BadTag records an unknown discriminator value and skips the object.
func (d *Decoder) BadTag(member, tag, typeName, allowed string) {
	d.Peek()
	off := d.Pos
	d.Skip()
	if d.Failed() {
		return
	}
	if len(d.Errs) >= maxKeptViolations {
		d.moreErrs++
		return
	}
	d.Errs = append(d.Errs, decodeViolation{off: off, suffix: member, keyword: "const",
		message: "unknown " + strconv.Quote(member) + " " + Quote(tag) + " for " + typeName + "; want one of " + allowed})
}

// MissingTag records an object without its union's discriminator.
func (d *Decoder) MissingTag(member, typeName, allowed string) {
	d.Peek()
	off := d.Pos
	d.Skip()
	if d.Failed() {
		return
	}
	d.Violate(off, "required", "missing required member "+strconv.Quote(member)+" (one of "+allowed+") to tell which "+typeName+" this is")
}

// PeekInteger reports whether the number at the current position has an
// integral value.
func (d *Decoder) PeekInteger() bool {
	s := d.Sub()
	text, ok := s.Number()
	if !ok {
		return false
	}
	_, isInt, _ := ParseInt(text)
	return isInt
}

// PeekRaw returns the bytes of the next value without consuming it.
func (d *Decoder) PeekRaw() []byte {
	s := d.Sub()
	return s.Raw()
}

// Describe names the kind of the next value for a message.
func (d *Decoder) Describe() string {
	c := d.Peek()
	if IsNumberStart(c) {
		s := d.Sub()
		if text, ok := s.Number(); ok {
			return "number " + QuoteNum(text)
		}
	}
	return KindOf(c)
}

// Trial keeps the best candidate while a union tries its branches.
type Trial struct {
	started bool
	valid   int // number of valid candidates so far
	ok      bool
	extras  int
	errs    int
	dec     Decoder
	// unsure is set when a candidate failed and read a number beyond
	// the range of its Go type: the schema may still allow it.
	unsure bool
}

// Offer considers a candidate that sd decoded, with the number of
// violations Validate found in it and its number of members the branch
// does not name. It reports whether the candidate is the best so far: a
// valid one beats an invalid one; then fewer unknown members win (the
// branch that names more of the document is the one it meant); then fewer
// violations; ties keep the earlier candidate.
func (t *Trial) Offer(sd *Decoder, violations int, extras int) bool {
	errs := violations + sd.ErrCount()
	if sd.syntax != nil {
		errs++
	}
	ok := errs == 0
	if ok {
		t.valid++
	} else if sd.beyond {
		t.unsure = true
	}
	better := !t.started
	if !better {
		switch {
		case ok != t.ok:
			better = ok
		case extras != t.extras:
			better = extras < t.extras
		default:
			better = errs < t.errs
		}
	}
	if better {
		t.started, t.ok, t.extras, t.errs, t.dec = true, ok, extras, errs, *sd
	}
	return better
}

// Finish moves d past the value as the best candidate read it.
func (t *Trial) Finish(d *Decoder, oneOf bool) {
	d.Peek()
	off := d.Pos
	d.Adopt(&t.dec)
	switch {
	case oneOf && t.valid > 1:
		d.OneOfConflict = true
		d.Violate(off, "oneOf", "matches "+strconv.Itoa(t.valid)+" branches; oneOf allows exactly one")
	case oneOf && t.valid == 1 && t.unsure:
		// Another branch may match too, with a number its Go type cannot
		// hold: the value is refused rather than maybe wrongly accepted.
		d.OneOfUnsure = true
		d.Violate(off, "oneOf", "matches one branch, and has a number beyond the range of another branch's Go type, which may match too; oneOf allows exactly one")
	}
}

// SortSince orders the violations recorded since mark by member name, so
// that a map's violations come out in the same order every time.
func (s *Validator) SortSince(mark int) {
	tail := s.Errs[mark:]
	if len(tail) < 2 {
		return
	}
	slices.SortStableFunc(tail, func(a, b pendingViolation) int {
		return strings.Compare(a.segs[len(a.segs)-1], b.segs[len(b.segs)-1])
	})
}

// RawDone ends a raw check: bytes that are not one JSON value are a
// violation.
func (d *Decoder) RawDone(s *Validator) {
	if d.Finish() != nil {
		s.Add("type", "not valid JSON")
	}
}

// JSONEqual reports whether two JSON texts are the same value: numbers
// compare by exact value and object members in any order.
func JSONEqual(a, b []byte) bool {
	da, db := Decoder{Data: a}, Decoder{Data: b}
	eq := equalValue(&da, &db)
	return eq && da.Finish() == nil && db.Finish() == nil
}

// equalScratch is where equalAt unescapes the strings and member names of
// each side; it comes from a pool, so that comparing allocates nothing
// once the pool's buffers are big enough.
type equalScratch struct{ a, b scratch }

var equalPool = sync.Pool{New: func() any { return new(equalScratch) }}

// EqualsConst reports whether the JSON text a is the value want (a
// constant of the schema as JSON text).
func EqualsConst(a []byte, want string) bool {
	return JSONEqual(a, unsafe.Slice(unsafe.StringData(want), len(want)))
}

// ObjectMembers returns the members of a JSON object by name.
func ObjectMembers(b []byte) (map[string][]byte, bool) {
	d := Decoder{Data: b}
	if !d.Object() {
		return nil, false
	}
	m := map[string][]byte{}
	for first := true; d.NextMember(&first); {
		k := d.Key
		m[k] = d.Raw()
	}
	return m, !d.Failed()
}

// equalValue reports whether the values at a and b are equal, moving
// both past them (or somewhere inside when they differ). It allocates
// nothing.
func equalValue(a, b *Decoder) bool {
	sc := equalPool.Get().(*equalScratch)
	eq, pa, pb := equalAt(a.Data, b.Data, a.Pos, b.Pos, sc.a.start(), sc.b.start(), sc)
	a.Pos, b.Pos = pa, pb
	if cap(sc.a.buf)+sc.a.short > 1<<20 || cap(sc.b.buf)+sc.b.short > 1<<20 {
		*sc = equalScratch{}
	}
	equalPool.Put(sc)
	return eq
}

// equalAt compares the values at offsets pa of da and pb of db and
// returns where each ends. It works on offsets, not on decoder pointers, so
// that its recursion keeps the decoders on the stack. Each side unescapes
// into the room left in sa and sb (sc.a and sc.b grow when it is short):
// what a level reads stays intact while the levels below it compare.
func equalAt(da, db []byte, pa, pb int, sa, sb []byte, sc *equalScratch) (bool, int, int) {
	a := Decoder{Data: da, Pos: pa, scratch: sa, grow: &sc.a}
	b := Decoder{Data: db, Pos: pb, scratch: sb, grow: &sc.b}
	ca, cb := a.Peek(), b.Peek()
	if IsNumberStart(ca) && IsNumberStart(cb) {
		ta, ok1 := a.Number()
		tb, ok2 := b.Number()
		return ok1 && ok2 && compareNumberText(ta, tb) == 0, a.Pos, b.Pos
	}
	if ca != cb {
		return false, a.Pos, b.Pos
	}
	switch ca {
	case '"':
		sa, ok1 := a.ReadStr()
		sb, ok2 := b.ReadStr()
		return ok1 && ok2 && sa == sb, a.Pos, b.Pos
	case 't', 'f', 'n':
		ra, rb := a.Raw(), b.Raw()
		return string(ra) == string(rb), a.Pos, b.Pos
	case '[':
		a.Array()
		b.Array()
		fa, fb := true, true
		for {
			ma, mb := a.NextElem(&fa), b.NextElem(&fb)
			if ma != mb || a.Failed() || b.Failed() {
				return false, a.Pos, b.Pos
			}
			if !ma {
				return true, a.Pos, b.Pos
			}
			var eq bool
			if eq, a.Pos, b.Pos = equalAt(da, db, a.Pos, b.Pos, emptyTail(a.scratch), emptyTail(b.scratch), sc); !eq {
				return false, a.Pos, b.Pos
			}
		}
	case '{':
		// Same number of members, and each member of a has an equal
		// member of the same name in b (names are unique in both).
		na, nb := countMembers(&a), countMembers(&b)
		if na < 0 || na != nb {
			return false, a.Pos, b.Pos
		}
		a.Object()
		for first := true; a.NextMember(&first); {
			k := a.Key
			bd := b.Sub()
			bd.Object()
			found := false
			for f2 := true; bd.NextMember(&f2); {
				if bd.Key != k {
					bd.Skip()
					continue
				}
				var eq bool
				if eq, a.Pos, _ = equalAt(da, db, a.Pos, bd.Pos, emptyTail(a.scratch), emptyTail(bd.scratch), sc); !eq {
					return false, a.Pos, b.Pos
				}
				found = true
				break
			}
			if !found {
				return false, a.Pos, b.Pos
			}
		}
		b.Skip()
		return !a.Failed() && !b.Failed(), a.Pos, b.Pos
	}
	return false, a.Pos, b.Pos
}

// emptyTail is the room left after what b holds.
func emptyTail(b []byte) []byte { return b[len(b):] }

// countMembers counts the members of the object at d's position without
// moving d; -1 when it is not a well-formed object.
func countMembers(d *Decoder) int {
	s := d.Sub()
	if !s.Object() {
		return -1
	}
	n := 0
	for first := true; s.NextMember(&first); n++ {
		s.Skip()
	}
	if s.Failed() {
		return -1
	}
	return n
}

// CmpNumber compares a JSON number text with another exactly.
func CmpNumber(a []byte, b string) int {
	x, _ := parseNumber(bytesString(a))
	y, _ := parseNumber(b)
	return compareNumbers(&x, &y)
}

// compareNumberText is CmpNumber for two texts.
func compareNumberText(a, b []byte) int {
	x, _ := parseNumber(bytesString(a))
	y, _ := parseNumber(bytesString(b))
	return compareNumbers(&x, &y)
}

// compareNumbers compares two parsed numbers exactly.
func compareNumbers(x, y *number) int {
	switch {
	case x.n == 0 && y.n == 0:
		return 0
	case x.n == 0:
		if y.neg {
			return 1
		}
		return -1
	case y.n == 0:
		if x.neg {
			return -1
		}
		return 1
	case x.neg != y.neg:
		if x.neg {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case x.exp != y.exp:
		c = 1
		if x.exp < y.exp {
			c = -1
		}
	default:
		for i := 0; i < max(x.n, y.n); i++ {
			var a, b byte
			if i < x.n {
				a = x.digit(i) + 1
			}
			if i < y.n {
				b = y.digit(i) + 1
			}
			if a != b {
				c = 1
				if a < b {
					c = -1
				}
				break
			}
		}
	}
	if x.neg {
		return -c
	}
	return c
}

// decimalParts is a decimal as digits (no leading or trailing zeros) times
// 10^(exp - len(digits)): 0.0125 is {digits "125", exp -1}.
type decimalParts struct {
	Neg    bool
	Digits string
	Exp    int
}

func (d decimalParts) Zero() bool { return d.Digits == "" }

func Decimal(s string) decimalParts {
	var d decimalParts
	if strings.HasPrefix(s, "-") {
		d.Neg = true
		s = s[1:]
	}
	mant, expPart, _ := strings.Cut(strings.ToLower(s), "e")
	e := 0
	if expPart != "" {
		n, err := strconv.Atoi(expPart)
		if err != nil {
			// Out of int range: clamp; such numbers compare by sign of exponent.
			if strings.HasPrefix(expPart, "-") {
				n = -1 << 30
			} else {
				n = 1 << 30
			}
		}
		e = n
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	e += len(intPart)
	// Drop leading zeros.
	i := 0
	for i < len(digits) && digits[i] == '0' {
		i++
		e--
	}
	digits = digits[i:]
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return decimalParts{Neg: d.Neg}
	}
	d.Digits, d.Exp = digits, e
	return d
}

// UnmarshalAndValidate decodes data into v and validates it, and returns
// everything it finds as one *ValidationError (or a *SyntaxError when data
// is not JSON). It is v.UnmarshalJSON then v.Validate, except that a
// decoding problem does not hide the rest.
func UnmarshalAndValidate(data []byte, v interface {
	UnmarshalJSON([]byte) error
	Validate() error
}) error {
	derr := v.UnmarshalJSON(data)
	var dv *ValidationError
	if derr != nil && !errors.As(derr, &dv) {
		return derr
	}
	return MergeViolations(derr, v.Validate())
}

// MergeViolations joins what decoding found with what validation adds,
// leaving out what validation says about values decoding already
// rejected (they hold zero values) and what both found.
func MergeViolations(decodeErr, validateErr error) error {
	if decodeErr == nil {
		return validateErr // the common case: nothing to merge, nothing to allocate
	}
	var dv, vv *ValidationError
	errors.As(decodeErr, &dv)
	errors.As(validateErr, &vv)
	switch {
	case dv == nil && vv == nil:
		return nil
	case dv == nil:
		return vv
	case vv == nil:
		return dv
	}
	all := &ValidationError{Violations: slices.Clone(dv.Violations)}
	for _, v := range vv.Violations {
		covered := false
		for _, w := range dv.Violations {
			switch {
			case v == w:
				// Both found it (a required union member that was absent).
				covered = true
			case w.Keyword == "required":
				// A missing member: the object itself was decoded, and
				// what validation says of the member's zero value is no
				// news.
				if m, ok := missingMember(w.Message); ok {
					p := w.Pointer + "/" + EscapePointer(m)
					if v.Pointer == p || strings.HasPrefix(v.Pointer, p+"/") {
						covered = true
					}
				}
			case v.Pointer == w.Pointer || strings.HasPrefix(v.Pointer, w.Pointer+"/"):
				covered = true
			case v.Keyword == "required":
				// A member that was there, but decoding rejected its
				// value (which then looks absent to validation).
				if m, ok := missingMember(v.Message); ok {
					p := v.Pointer + "/" + EscapePointer(m)
					if w.Pointer == p || strings.HasPrefix(w.Pointer, p+"/") {
						covered = true
					}
				}
			}
		}
		if !covered {
			all.Violations = append(all.Violations, v)
		}
	}
	return all
}

// missingMember returns the member a "required" violation's message
// names ("missing required member \"name\"").
func missingMember(msg string) (string, bool) {
	q, ok := strings.CutPrefix(msg, "missing required member ")
	if !ok {
		return "", false
	}
	var name string
	if json.Unmarshal([]byte(q), &name) != nil {
		return "", false
	}
	return name, true
}

// External decodes a value of a type mcpgen did not generate (mapped to an
// existing Go type) with encoding/json.
func (d *Decoder) External(v any) {
	d.Peek()
	off := d.Pos
	raw := d.Raw()
	if d.Failed() {
		return
	}
	if err := json.Unmarshal(raw, v); err != nil {
		d.Violate(off, "type", err.Error())
	}
}

// External encodes a value of an existing Go type with encoding/json.
func (e *Encoder) External(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.Fail(err.Error())
		e.Null()
		return
	}
	e.Buf = append(e.Buf, b...)
}

// ValidateExternal runs the Validate method of an existing Go type, if it
// has one.
func ValidateExternal(v any, s *Validator) {
	if x, ok := v.(interface{ Validate() error }); ok {
		if err := x.Validate(); err != nil {
			s.Add("external", err.Error())
		}
	}
}

// Lookup returns the raw value of the member at path in the JSON object
// obj (each element a member name, one level down from the last), or nil
// when there is none or obj is not an object.
func Lookup(obj []byte, path ...string) []byte {
	for _, name := range path {
		obj = lookup1(obj, name)
	}
	return obj
}

func lookup1(obj []byte, name string) []byte {
	if obj == nil {
		return nil
	}
	var d Decoder
	d.InitShared(obj)
	if d.Peek() != '{' {
		return nil
	}
	d.Object()
	for first := true; d.NextMember(&first); {
		if d.Key == name {
			d.Peek()
			return d.Raw()
		}
		d.Skip()
	}
	return nil
}

// IsNil reports whether v is no value: nil, or a nil pointer in an
// interface (a union whose branch is a nil *TextContent has no JSON form
// of its own).
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// FirstByte is the index of the first byte of b that is not JSON
// whitespace, or -1.
func FirstByte(b []byte) int {
	for i, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return -1
}
