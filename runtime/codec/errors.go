package codec

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A Violation is one way a JSON document or a Go value breaks the schema.
type Violation struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value within
	// the document, "" for the document itself.
	Pointer string `json:"pointer"`
	// Keyword is the JSON Schema keyword that failed: "required", "type",
	// "const", "enum", "minimum", "maximum", "minItems", "maxItems",
	// "format", "anyOf", "oneOf", "additionalProperties", ...
	Keyword string `json:"keyword"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

// String renders the violation for a person; a pointer longer than
// maxPointerText is shortened (its start and its end are kept).
func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "/"
	}
	return ClipMiddle(p, MaxPointerText) + ": " + v.Message + " (" + v.Keyword + ")"
}

// MaxPointerText bounds the JSON pointer in a violation's text and in the
// data of an error response.
const MaxPointerText = 128

// ClipMiddle shortens s to its first and last max/2 bytes (on UTF-8
// boundaries) joined by "..." when it is longer than max.
func ClipMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return clipUTF8(s, max/2) + "..." + tailUTF8(s, max/2)
}

// Error returns the violation as text, so that a Violation is an error.
func (v Violation) Error() string { return v.String() }

// ValidationError lists every violation found in a document or value.
type ValidationError struct {
	Violations []Violation `json:"violations"`
	// Omitted counts the violations found past the first ones, which a
	// decoder keeps no record of (so that a document that breaks the
	// schema everywhere costs no memory for each).
	Omitted int `json:"omitted,omitempty"`
}

// Unwrap returns the violations as errors (for errors.As and for code that
// handles the ValidationError types of several generated packages alike).
func (e *ValidationError) Unwrap() []error {
	out := make([]error, len(e.Violations))
	for i, v := range e.Violations {
		out[i] = v
	}
	return out
}

// Error lists the first maxErrorViolations violations and counts the
// rest.
func (e *ValidationError) Error() string {
	var b strings.Builder
	n := len(e.Violations) + e.Omitted
	switch n {
	case 0:
		return "no violations"
	case 1:
		b.WriteString("invalid: ")
	default:
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" violations: ")
	}
	for i, v := range e.Violations {
		if i == maxErrorViolations {
			b.WriteString("; and " + strconv.Itoa(n-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	if len(e.Violations) <= maxErrorViolations && e.Omitted > 0 {
		b.WriteString("; and " + strconv.Itoa(e.Omitted) + " more")
	}
	return b.String()
}

// maxErrorViolations bounds the violations ValidationError.Error lists.
const maxErrorViolations = 10

// SyntaxError is malformed JSON: the document is not JSON at all, or breaks
// a rule every document must keep (UTF-8 text, unique member names, nesting
// at most 10000 deep).
type SyntaxError struct {
	Offset int64 // byte offset where the problem was found
	Msg    string
	// Duplicate is the member name when the problem is a duplicate member.
	Duplicate string
}

func (e *SyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.FormatInt(e.Offset, 10) + ": " + e.Msg
}

// pendingViolation is a violation under construction: its pointer segments are
// collected innermost first while the validators return.
type pendingViolation struct {
	segs    []string // reversed pointer segments, already escaped
	keyword string
	message string
}

// Validator collects violations. The zero value is ready to use; it
// allocates only when a violation is recorded.
type Validator struct {
	Errs []pendingViolation
	// quiet is set on a state that only tells whether a value passes
	// (the subschema of not, if, contains, an anyOf or oneOf branch): it
	// counts failures in fails instead of recording violations, so that a
	// valid document, whose not or if subschema may well fail, allocates
	// no messages.
	quiet bool
	fails int
	// enc is where Validate encodes a value whose schema it checks on the
	// value's JSON (Struct.Whole in the generator); it keeps its buffer
	// from one use to the next.
	enc Encoder
	// scratch is where the decoders of Validate unescape strings
	// (reader); it keeps its room from one use to the next.
	scratch scratch
}

// Encoder returns the state's encoder, emptied.
func (s *Validator) Encoder() *Encoder {
	s.enc.Buf, s.enc.Err = s.enc.Buf[:0], nil
	return &s.enc
}

// Encoded starts d on what the encoder wrote. A value that has no JSON
// form (a NaN, a tuple with a hole) is a violation instead.
func (s *Validator) Encoded(d *Decoder) bool {
	if s.enc.Err != nil {
		s.Add("type", "has no JSON form: "+s.enc.Err.Error())
		return false
	}
	s.Reader(d, s.enc.Buf)
	return true
}

// Reader starts d on JSON that Validate only reads: its strings are
// unescaped into s's scratch space, which Validate reuses.
func (s *Validator) Reader(d *Decoder, b []byte) {
	d.Data, d.scratch, d.grow = b, s.scratch.start(), &s.scratch
}

var vstatePool = sync.Pool{New: func() any { return new(Validator) }}

// NewValidator returns an empty Validator from a pool: Validate methods hand
// it to interface methods, which would make a Validator on the stack escape.
func NewValidator() *Validator { return vstatePool.Get().(*Validator) }

// NewQuietValidator returns an empty quiet Validator from the pool: its Release
// reports whether anything failed, and it records no violations.
func NewQuietValidator() *Validator {
	s := vstatePool.Get().(*Validator)
	s.quiet = true
	return s
}

// Done returns the violations as an error and puts s back in the pool.
func (s *Validator) Done() error {
	err := s.Err()
	s.Release()
	return err
}

// Release empties s and puts it back in the pool; it reports whether s
// had no violations.
func (s *Validator) Release() bool {
	ok := len(s.Errs) == 0 && s.fails == 0
	s.quiet, s.fails = false, 0
	clear(s.Errs)
	s.Errs = s.Errs[:0]
	if cap(s.enc.Buf) > 1<<20 {
		s.enc.Buf = nil // do not keep a huge buffer in the pool
	}
	clear(s.enc.Keys[:cap(s.enc.Keys)]) // keep no strings of the value alive
	if cap(s.scratch.buf)+s.scratch.short > 1<<20 {
		s.scratch = scratch{}
	}
	if cap(s.enc.scratch.buf)+s.enc.scratch.short > 1<<20 {
		s.enc.scratch = scratch{}
	}
	vstatePool.Put(s)
	return ok
}

// Mark returns the current number of violations.
func (s *Validator) Mark() int { return len(s.Errs) }

// Add records a violation at the current value.
func (s *Validator) Add(keyword, message string) {
	if s.quiet {
		s.fails++
		return
	}
	s.Errs = append(s.Errs, pendingViolation{keyword: keyword, message: message})
}

// Loud reports whether s records violations; a quiet s counts the failure
// instead. The raw checks call it before building a message:
// if s.loud() { s.add(keyword, "..."+x) }.
func (s *Validator) Loud() bool {
	if s.quiet {
		s.fails++
		return false
	}
	return true
}

// At prefixes the violations recorded since mark with a member name.
func (s *Validator) At(mark int, name string) {
	if len(s.Errs) == mark {
		return
	}
	// The name may point into a buffer that is reused (enc): copy it.
	seg := EscapePointer(strings.Clone(name))
	for i := mark; i < len(s.Errs); i++ {
		s.Errs[i].segs = append(s.Errs[i].segs, seg)
	}
}

// AtIndex prefixes the violations recorded since mark with an array index.
func (s *Validator) AtIndex(mark, i int) {
	if len(s.Errs) == mark {
		return
	}
	seg := strconv.Itoa(i)
	for j := mark; j < len(s.Errs); j++ {
		s.Errs[j].segs = append(s.Errs[j].segs, seg)
	}
}

// Err returns the violations as a *ValidationError, or nil.
func (s *Validator) Err() error {
	if len(s.Errs) == 0 {
		return nil
	}
	out := make([]Violation, len(s.Errs))
	for i, v := range s.Errs {
		var b strings.Builder
		for j := len(v.segs) - 1; j >= 0; j-- {
			b.WriteByte('/')
			b.WriteString(v.segs[j])
		}
		out[i] = Violation{Pointer: b.String(), Keyword: v.keyword, Message: v.message}
	}
	return &ValidationError{Violations: out}
}

func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// MaxQuoted is how many bytes of a string Quote keeps: whatever a message
// quotes from its input (a method name, an id, a header value, a member
// name), the message stays short.
const MaxQuoted = 64

// Quote quotes s for a message, shortening a string longer than MaxQuoted
// bytes to its first 61 (on a UTF-8 boundary) and "...".
func Quote(s string) string {
	if len(s) > MaxQuoted {
		s = clipUTF8(s, MaxQuoted-3) + "..."
	}
	return strconv.Quote(s)
}

// Clip shortens s to at most max bytes (on a UTF-8 boundary, ending in
// "..." when it cut), for text from elsewhere that a message includes
// unquoted (an error of another package that may repeat its input).
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return clipUTF8(s, max-3) + "..."
}

// clipUTF8 is the longest prefix of s of at most n bytes that does not
// cut a UTF-8 sequence.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailUTF8 is the longest suffix of s of at most n bytes that does not
// start inside a UTF-8 sequence.
func tailUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// maxQuotedList bounds the entries QuoteList shows.
const maxQuotedList = 16

// QuoteList renders `"a", "b"` for messages, each entry as Quote does, at
// most maxQuotedList of them and a count of the rest.
func QuoteList(list []string) string {
	var b strings.Builder
	for i, s := range list {
		if i == maxQuotedList {
			b.WriteString(", and " + strconv.Itoa(len(list)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(s))
	}
	return b.String()
}
