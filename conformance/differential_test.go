package conformance

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/generated/mcp20241105"
	"github.com/mcpgen/mcpgen/generated/mcp20250326"
	"github.com/mcpgen/mcpgen/generated/mcp20250618"
	"github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/internal/reference"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// The contract the differential test checks (from the project's issue): for
// every definition D of every revision and every JSON document b,
//
//	v.UnmarshalJSON(b) == nil && v.Validate() == nil
//
// if and only if the reference validator (internal/reference, format
// assertions on) finds b valid against D. The documented exceptions, where
// mcpgen is stricter on purpose and must reject, are decided by the test
// itself (see expect):
//
//   - the document is not valid UTF-8;
//   - an object of the document has a duplicate member name;
//   - an integer outside int64's range at a position the schema types as
//     "integer" (and not as "number");
//   - a number outside float64's range (|x| > math.MaxFloat64 after
//     rounding) at a position the schema types as "number".
//
// The first two the test finds by scanning the document. For the last two
// it asks the reference about a stricter copy of the schema (strictSchema)
// where every schema node typed "integer" also bounds the value to int64
// and every node typed "number" to float64's finite range: that way a
// position counts as typed only where the typed schema is the one that
// would accept the number (a union with an untyped branch still accepts).

// goValue is what every generated package's Value has in common.
type goValue interface {
	UnmarshalJSON([]byte) error
	Validate() error
}

// revision is one MCP revision: its generated package and its schema.
type revision struct {
	name     string
	newValue func(def string) (goValue, bool)
	defs     []string // the generated package's Definitions

	once   sync.Once
	err    error
	doc    *schema.Document
	ref    *reference.Validator // the schema as it is
	strict *reference.Validator // the schema with int64 and float64 bounds
	defIdx map[string]*schema.Schema
}

// wrap adapts a generated package's NewValue.
func wrap[V goValue](newValue func(string) (V, bool)) func(string) (goValue, bool) {
	return func(def string) (goValue, bool) {
		v, ok := newValue(def)
		if !ok {
			return nil, false
		}
		return v, true
	}
}

var revisions = []*revision{
	{name: "2024-11-05", newValue: wrap(mcp20241105.NewValue), defs: mcp20241105.Definitions},
	{name: "2025-03-26", newValue: wrap(mcp20250326.NewValue), defs: mcp20250326.Definitions},
	{name: "2025-06-18", newValue: wrap(mcp20250618.NewValue), defs: mcp20250618.Definitions},
	{name: "2025-11-25", newValue: wrap(mcp20251125.NewValue), defs: mcp20251125.Definitions},
	{name: "2026-07-28", newValue: wrap(mcp20260728.NewValue), defs: mcp20260728.Definitions},
}

// loadRevision returns the revision called name with its schema loaded; it
// fails the test when the schema is missing or does not load.
func loadRevision(t testing.TB, name string) *revision {
	t.Helper()
	var r *revision
	for _, x := range revisions {
		if x.name == name {
			r = x
		}
	}
	if r == nil {
		t.Fatalf("no revision %s", name)
	}
	data := testenv.Schema(t, name) // fails the test when it is missing
	r.once.Do(func() {
		r.doc, r.err = schema.Load(name+"/schema.json", data)
		if r.err != nil {
			return
		}
		r.ref, r.err = reference.New(data)
		if r.err != nil {
			return
		}
		var strict []byte
		if strict, r.err = strictSchema(data); r.err != nil {
			return
		}
		r.strict, r.err = reference.New(strict)
		r.defIdx = map[string]*schema.Schema{}
		for _, d := range r.doc.Defs {
			r.defIdx[d.Name] = d
		}
	})
	if r.err != nil {
		t.Fatalf("%s: %v", name, r.err)
	}
	return r
}

// verdict is one side's answer on a document.
type verdict struct {
	accept bool
	reason string
}

func (v verdict) String() string {
	if v.accept {
		return "accepts"
	}
	return "rejects"
}

// mcpgen runs the generated code: UnmarshalJSON, then Validate. A panic is
// returned as panicked.
func (r *revision) mcpgen(def string, doc []byte) (res verdict, panicked any) {
	v, ok := r.newValue(def)
	if !ok {
		return verdict{reason: "NewValue: no type for definition " + def}, nil
	}
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	if err := v.UnmarshalJSON(doc); err != nil {
		return verdict{reason: fmt.Sprintf("UnmarshalJSON: %T: %v", err, err)}, nil
	}
	if err := v.Validate(); err != nil {
		return verdict{reason: fmt.Sprintf("Validate: %T: %v", err, err)}, nil
	}
	return verdict{accept: true}, nil
}

// expect returns the verdict mcpgen must give: the reference's, except in
// the documented cases where mcpgen is stricter (see the top of the file).
// With explain, a rejection that comes from a number bound of the strict
// schema says so (which takes another run of the reference).
func (r *revision) expect(def string, doc []byte, explain bool) (verdict, error) {
	if !utf8.Valid(doc) {
		return verdict{reason: "exception: the document is not valid UTF-8"}, nil
	}
	refDoc := doc
	if hugeExponent(doc) {
		// The reference turns numbers into big.Rat: one with an exponent
		// of a billion would take forever. It gets a number of the same
		// sign and integrality, beyond the same bounds, instead.
		v, err := schema.Parse(doc)
		if dup := duplicateName(err); dup != "" {
			return verdict{reason: "exception: " + dup}, nil
		}
		if err == nil && normalizeHugeNumbers(v) {
			refDoc = encode(v, compact)
		}
	}
	want, err := r.reference(r.strict, def, refDoc)
	if err != nil {
		return verdict{}, err
	}
	if want.accept {
		// Valid, unless a name is repeated (the reference keeps the last
		// member of that name).
		_, err := schema.Parse(doc)
		if dup := duplicateName(err); dup != "" {
			return verdict{reason: "exception: " + dup}, nil
		}
		return want, nil
	}
	if !explain {
		return want, nil
	}
	// The strict schema rejects: say whether the schema itself does too.
	plain, err := r.reference(r.ref, def, refDoc)
	if err != nil {
		return verdict{}, err
	}
	if plain.accept {
		want.reason = "exception: a number outside int64 (at an integer) or float64 (at a number): " + want.reason
	}
	return want, nil
}

// duplicateName returns the error of schema.Parse when it is about a
// duplicate member name, or "".
func duplicateName(err error) string {
	var pe *schema.PosError
	if errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "duplicate member") {
		return err.Error()
	}
	return ""
}

// hugeExponent reports whether the document may have a number with an
// exponent of 10000 or more (it may be inside a string: no matter).
func hugeExponent(doc []byte) bool {
	for i := 0; i < len(doc); i++ {
		if doc[i] != 'e' && doc[i] != 'E' || i == 0 || doc[i-1] < '0' || doc[i-1] > '9' {
			continue
		}
		j := i + 1
		if j < len(doc) && (doc[j] == '+' || doc[j] == '-') {
			j++
		}
		k := j
		for k < len(doc) && doc[k] == '0' {
			k++
		}
		n := k
		for n < len(doc) && doc[n] >= '0' && doc[n] <= '9' {
			n++
		}
		if n-k >= 5 {
			return true
		}
	}
	return false
}

func (r *revision) reference(ref *reference.Validator, def string, doc []byte) (verdict, error) {
	ok, why, err := ref.Validate(def, doc)
	if err != nil {
		return verdict{}, err
	}
	return verdict{accept: ok, reason: why}, nil
}

// strictSchema returns a copy of the schema document where every schema
// node whose "type" names "integer" but not "number" also requires an
// integer to be within int64, and every node whose "type" names "number"
// requires a number to round to a finite float64: |x| < 2^1024 - 2^970,
// the midpoint between math.MaxFloat64 and 2^1024 (which rounds to even,
// that is to infinity).
func strictSchema(data []byte) ([]byte, error) {
	root, err := schema.Parse(data)
	if err != nil {
		return nil, err
	}
	m := new(big.Int).Lsh(big.NewInt(1), 1024)
	m.Sub(m, new(big.Int).Lsh(big.NewInt(1), 970))
	floatBounds := fmt.Sprintf(`{"exclusiveMinimum":-%s,"exclusiveMaximum":%s}`, m, m)
	intBounds := `{"exclusiveMinimum":-9223372036854775809,"exclusiveMaximum":9223372036854775808}`
	var walk func(s *schema.Value)
	walk = func(s *schema.Value) {
		if s.Kind != schema.Object {
			return
		}
		for _, mb := range s.Members {
			v := mb.Value
			switch mb.Name {
			case "properties", "patternProperties", "definitions", "$defs", "dependentSchemas":
				if v.Kind == schema.Object {
					for _, p := range v.Members {
						walk(p.Value)
					}
				}
			case "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
				"unevaluatedProperties", "unevaluatedItems", "additionalItems":
				walk(v)
			case "items", "anyOf", "oneOf", "allOf", "prefixItems":
				if v.Kind == schema.Array {
					for _, it := range v.Items {
						walk(it)
					}
				} else {
					walk(v)
				}
			}
		}
		t := s.Get("type")
		if t == nil {
			return
		}
		types := map[string]bool{}
		if t.Kind == schema.String {
			types[t.Str] = true
		}
		for _, it := range t.Items {
			types[it.Str] = true
		}
		bounds := ""
		switch {
		case types["number"]:
			bounds = floatBounds
		case types["integer"]:
			bounds = intBounds
		default:
			return
		}
		all := s.Get("allOf")
		if all == nil {
			all = &schema.Value{Kind: schema.Array}
			s.Members = append(s.Members, schema.Member{Name: "allOf", Value: all})
		}
		all.Items = append(all.Items, parseText(bounds))
	}
	walk(root)
	return encode(root, compact), nil
}

// walkValues calls f on every value of v, parents first.
func walkValues(v *schema.Value, f func(v *schema.Value)) {
	f(v)
	for _, it := range v.Items {
		walkValues(it, f)
	}
	for _, m := range v.Members {
		walkValues(m.Value, f)
	}
}

// decimal is a JSON number split into sign, significant digits (no leading
// or trailing zeros) and exponent: value = ±0.digits × 10^exp. The exponent
// saturates far beyond anything that matters here.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

func parseDecimal(text string) decimal {
	var d decimal
	s := text
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, expText, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	point := int64(len(intPart))
	trimmed := strings.TrimLeft(digits, "0")
	point -= int64(len(digits) - len(trimmed))
	d.digits = strings.TrimRight(trimmed, "0")
	if d.digits == "" {
		return decimal{neg: d.neg}
	}
	var e int64
	eneg := false
	if expText != "" && (expText[0] == '+' || expText[0] == '-') {
		eneg = expText[0] == '-'
		expText = expText[1:]
	}
	for _, c := range expText {
		if e < 1e15 {
			e = e*10 + int64(c-'0')
		}
	}
	if eneg {
		e = -e
	}
	d.exp = point + e
	return d
}

// normalizeHugeNumbers replaces, in place, every number whose decimal
// exponent is beyond ±400 (its value is above 10^400 or below 10^-400) by a short number that compares the same against
// every bound in the (strict) MCP schemas: same sign, same integrality,
// beyond float64's range or below its smallest denormal. A zero written
// with a long exponent (0e99999999999999999999) becomes 0: the reference
// panics on an exponent that does not fit an int. It reports whether it
// changed anything.
func normalizeHugeNumbers(v *schema.Value) bool {
	changed := false
	walkValues(v, func(n *schema.Value) {
		if n.Kind != schema.Number {
			return
		}
		d := parseDecimal(n.Num)
		if d.digits == "" {
			if n.Num != "0" && hugeExponent([]byte(n.Num)) {
				n.Num, changed = "0", true
			}
			return
		}
		if d.exp >= -400 && d.exp <= 400 {
			return
		}
		sign := ""
		if d.neg {
			sign = "-"
		}
		switch {
		case d.exp < -400:
			n.Num = sign + "1e-401"
		case d.exp >= int64(len(d.digits)):
			n.Num = sign + "1e401"
		default:
			n.Num = sign + "1" + strings.Repeat("0", 401) + ".5"
		}
		changed = true
	})
	return changed
}

// testCase is one document to check against one definition.
type testCase struct {
	def   string
	label string // where the document comes from
	doc   []byte
}

// disagreement is a case where mcpgen and the expectation differ.
type disagreement struct {
	testCase
	got, want verdict
	panicked  any
}

func (d disagreement) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%s]:\n", d.def, d.label)
	if d.panicked != nil {
		fmt.Fprintf(&b, "  mcpgen PANICS: %v\n", d.panicked)
	} else {
		fmt.Fprintf(&b, "  mcpgen %s: %s\n", d.got, orDash(d.got.reason))
	}
	who := "reference"
	if strings.HasPrefix(d.want.reason, "exception:") {
		who = "expected (documented exception)"
	}
	fmt.Fprintf(&b, "  %s %s: %s\n", who, d.want, orDash(d.want.reason))
	doc := string(d.doc)
	if len(doc) > 4000 {
		doc = doc[:4000] + fmt.Sprintf("... (%d bytes in all)", len(d.doc))
	}
	if !utf8.ValidString(doc) {
		doc = strconv.Quote(doc)
	}
	fmt.Fprintf(&b, "  document: %s", doc)
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// check runs one case on both sides; it returns the disagreement, if any.
func (r *revision) check(c testCase) (*disagreement, error) {
	want, err := r.expect(c.def, c.doc, false)
	if err != nil {
		return nil, fmt.Errorf("%s [%s]: reference: %v", c.def, c.label, err)
	}
	got, p := r.mcpgen(c.def, c.doc)
	if p == nil && got.accept == want.accept {
		return nil, nil
	}
	if want, err = r.expect(c.def, c.doc, true); err != nil {
		return nil, fmt.Errorf("%s [%s]: reference: %v", c.def, c.label, err)
	}
	return &disagreement{testCase: c, got: got, want: want, panicked: p}, nil
}

// TestDifferential compares mcpgen's verdict with the reference's on
// thousands of documents per revision: the official examples (2026-07-28),
// instances the test builds from each schema (every revision), and
// mutations of both. Under -short it mutates one slice of the base
// documents (testenv.Sample: an eighth unless MCPGEN_SAMPLE says
// otherwise); every base document is still built and checked.
func TestDifferential(t *testing.T) {
	// The cases make a lot of short-lived garbage; collect less often.
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	sample := testenv.Sample(t)
	var total atomic.Int64
	start := time.Now()
	t.Run("revisions", func(t *testing.T) {
		for _, rev := range revisions {
			t.Run(rev.name, func(t *testing.T) {
				t.Parallel()
				total.Add(int64(differential(t, loadRevision(t, rev.name), sample)))
			})
		}
	})
	t.Logf("checked %d cases over %d revisions in %v", total.Load(), len(revisions), time.Since(start).Round(time.Millisecond))
	if min := 5000 / sample.Fraction(); total.Load() < int64(min) {
		t.Errorf("only %d cases (want %d or more): the generator of cases is broken", total.Load(), min)
	}
}

// differential runs the cases of one revision that sample keeps (the
// mutants of the base documents it keeps) and returns how many.
func differential(t *testing.T, r *revision, sample testenv.Sampler) int {
	start := time.Now()
	// Every schema definition has a Go type, and nothing else does. The
	// cases of a definition without one are not run (they would all be
	// reported); the missing type is, once.
	var schemaDefs []string
	untyped := map[string]bool{}
	for _, d := range r.doc.Defs {
		schemaDefs = append(schemaDefs, d.Name)
		if _, ok := r.newValue(d.Name); !ok {
			untyped[d.Name] = true
			t.Errorf("%s: the generated package has no type for definition %s (NewValue(%q) returns false): its cases are not run", r.name, d.Name, d.Name)
		}
	}
	slices.Sort(schemaDefs)
	if !slices.Equal(schemaDefs, r.defs) {
		t.Errorf("%s: Definitions = %v\nthe schema's definitions: %v", r.name, r.defs, schemaDefs)
	}

	bases := slices.DeleteFunc(baseDocuments(t, r), func(b baseDocument) bool {
		return untyped[b.def] || !sample.Keep(r.name+" "+b.def+" "+b.label)
	})

	rich := richObjects(r, bases, 4)

	// Each worker takes a base document, derives its variants and checks
	// every one not checked before.
	var (
		mu    sync.Mutex
		seen  = map[[16]byte]bool{}
		found []*disagreement
		errs  []error
		n     int
		next  atomic.Int64
		wg    sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(bases) {
					return
				}
				b := bases[i]
				mut := newMutator(r, b.def)
				// The deeply nested variants are big and slow to check: a
				// few documents get them (one under -short).
				mut.deep = i < 3 && (sample.All() || i < 1)
				mut.rich = rich[i]
				cases := []testCase{{def: b.def, label: b.label, doc: encode(b.value, compact)}}
				for _, m := range mut.mutants(b.value) {
					cases = append(cases, testCase{def: b.def, label: b.label + ": " + m.label, doc: m.doc})
				}
				for _, c := range cases {
					h := sha256.Sum256(slices.Concat([]byte(c.def), []byte{0}, c.doc))
					mu.Lock()
					dup := seen[[16]byte(h[:16])]
					seen[[16]byte(h[:16])] = true
					mu.Unlock()
					if dup {
						continue
					}
					d, err := r.check(c)
					mu.Lock()
					n++
					if d != nil {
						found = append(found, d)
					}
					if err != nil {
						errs = append(errs, err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	slices.SortFunc(found, func(a, b *disagreement) int {
		return strings.Compare(a.def+a.label, b.def+b.label)
	})
	for _, d := range found {
		t.Errorf("disagreement: %s", d)
	}
	t.Logf("%s: %d base documents, %d cases, %d disagreements (%v)", r.name, len(bases), n, len(found), time.Since(start).Round(time.Millisecond))
	return n
}

// baseDocument is a document the mutations start from.
type baseDocument struct {
	def   string
	label string
	value *schema.Value
}

// baseDocuments returns the official examples (2026-07-28 only) and the
// instances built from the schema (every revision). A built instance that
// the reference rejects is a bug of the builder: the test fails for it,
// and still uses it.
func baseDocuments(t testing.TB, r *revision) []baseDocument {
	var out []baseDocument
	if r.name == "2026-07-28" {
		for _, ex := range testenv.Examples(t, r.name) {
			v, err := schema.Parse(ex.Data)
			if err != nil {
				t.Fatalf("example %s/%s: %v", ex.Definition, ex.Name, err)
			}
			out = append(out, baseDocument{def: ex.Definition, label: "example " + ex.Definition + "/" + ex.Name, value: v})
		}
	}
	for _, def := range r.doc.Defs {
		valid := 0
		for _, inst := range buildInstances(def) {
			doc := encode(inst.value, compact)
			ok, why, err := r.ref.Validate(def.Name, doc)
			if err != nil {
				t.Fatalf("%s %s: %v", r.name, def.Name, err)
			}
			if !ok {
				t.Errorf("%s %s: the built instance (%s) is not valid: %s\n%s", r.name, def.Name, inst.label, why, doc)
			} else {
				valid++
			}
			out = append(out, baseDocument{def: def.Name, label: "built " + inst.label, value: inst.value})
		}
		if valid == 0 {
			t.Errorf("%s %s: could not build a valid instance", r.name, def.Name)
		}
	}
	return out
}

// TestStrictSchema checks the bounds strictSchema adds: int64 exactly at
// "integer" nodes, float64's rounding limit exactly at "number" nodes,
// and nothing where a union has an untyped branch.
func TestStrictSchema(t *testing.T) {
	m := new(big.Int).Lsh(big.NewInt(1), 1024)
	m.Sub(m, new(big.Int).Lsh(big.NewInt(1), 970))
	limit := m.String()
	below := new(big.Int).Sub(m, big.NewInt(1)).String()
	// The limit is where strconv (so mcpgen) starts to overflow.
	if f, err := strconv.ParseFloat(limit, 64); err == nil {
		t.Fatalf("ParseFloat(2^1024-2^970) = %v, want a range error", f)
	}
	if f, err := strconv.ParseFloat(below, 64); err != nil || f != math.MaxFloat64 {
		t.Fatalf("ParseFloat(2^1024-2^970-1) = %v, %v; want MaxFloat64", f, err)
	}
	src := `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{
		"I":{"type":"integer"},
		"N":{"type":"number"},
		"S":{"type":["string","integer"]},
		"U":{"anyOf":[{"type":"integer"},{"type":"object"},{}]},
		"P":{"type":"object","properties":{"n":{"type":"number","minimum":0}},"allOf":[{"required":["n"]}]}}}`
	strict, err := strictSchema([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := reference.New(strict)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		def, doc string
		valid    bool
	}{
		{"I", "9223372036854775807", true},
		{"I", "-9223372036854775808", true},
		{"I", "9223372036854775808", false},
		{"I", "-9223372036854775809", false},
		{"I", "9.223372036854775807e18", true},
		{"I", "1e19", false},
		{"I", "1.5", false},
		{"N", below, true},
		{"N", limit, false},
		{"N", "-" + below, true},
		{"N", "-" + limit, false},
		{"N", "1e-400", true},
		{"S", "9223372036854775808", false},
		{"S", `"9223372036854775808"`, true},
		{"U", "9223372036854775808", true},
		{"U", "1e400", true},
		{"P", `{"n":1e400}`, false},
		{"P", `{"n":1}`, true},
		{"P", `{}`, false},
	} {
		ok, why, err := ref.Validate(c.def, []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if ok != c.valid {
			t.Errorf("%s %s: strict schema says %v, want %v (%s)", c.def, short(c.doc), ok, c.valid, why)
		}
	}
}

func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// TestNormalizeHugeNumbers checks the stand-ins the reference gets for
// numbers with huge exponents.
func TestNormalizeHugeNumbers(t *testing.T) {
	for in, want := range map[string]string{
		`[1e999999999]`:             `[1e401]`,
		`[-1E+999999999]`:           `[-1e401]`,
		`[1e-999999999]`:            `[1e-401]`,
		`[-0.5e-999999999]`:         `[-1e-401]`,
		`[0e999999999]`:             `[0]`,
		`[0e9999]`:                  `[0e9999]`,
		`[-0E10000000000000000000]`: `[0]`,
		`[1.5e399]`:                 `[1.5e399]`,
		`[1.5e401]`:                 `[1e401]`,
		`[123e-2, 0.000e-99999999]`: `[123e-2,0]`,
	} {
		v, err := schema.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		normalizeHugeNumbers(v)
		if got := string(encode(v, compact)); got != want {
			t.Errorf("normalizeHugeNumbers(%s) = %s, want %s", in, got, want)
		}
	}
	if !hugeExponent([]byte(`{"a":1e+00012345}`)) || hugeExponent([]byte(`{"e12345":1e+0001234}`)) {
		t.Error("hugeExponent is wrong")
	}
}
