package codec

import (
	"errors"
	"hash/maphash"
	"strconv"
	"strings"
	"testing"
)

// TestExtraMemberHashCollision: a name whose hash is in the set but which
// is not among the members (what a collision of two hashes looks like) is
// not a duplicate; a name that is among them is.
func TestExtraMemberHashCollision(t *testing.T) {
	var m Members
	var ix MemberIndex
	d := Decoder{Data: []byte(strings.Repeat("0 ", memberScanMax+1))}
	for i := range memberScanMax + 1 {
		d.Key = "k" + strings.Repeat("x", i)
		if !d.ExtraMember(&m, &ix) {
			t.Fatalf("member %d: %v", i, d.Finish())
		}
	}
	if ix.hashes == nil {
		t.Fatal("the index did not switch to the set")
	}
	ix.hashes[maphash.String(ix.seed, "other")] = struct{}{}
	d = Decoder{Data: []byte(`1`)}
	d.Key = "other"
	if !d.ExtraMember(&m, &ix) || m[len(m)-1].Name != "other" {
		t.Fatalf("a colliding name was taken for a duplicate: %v", d.Finish())
	}
	d = Decoder{Data: []byte(`2`)}
	d.Key = "kxx"
	if d.ExtraMember(&m, &ix) {
		t.Fatal("a duplicate was not found")
	}
	if err := d.Finish(); err == nil || !strings.Contains(err.Error(), `duplicate member "kxx"`) {
		t.Errorf("err = %v", err)
	}
}

// TestTrialOneOfUnsure: a oneOf whose one matching branch is not the only
// candidate, because another failed on a number its Go type cannot hold,
// is refused; an anyOf, or a failure for another reason, is not.
func TestTrialOneOfUnsure(t *testing.T) {
	for _, c := range []struct {
		doc    string
		oneOf  bool
		refuse bool
	}{
		{"1e30", true, true},   // the int64 branch cannot tell
		{"1e30", false, false}, // anyOf: the float branch suffices
		{"1.5", true, false},   // the int64 branch fails: not an integer
		{"7", true, true},      // both branches match
	} {
		var d Decoder
		d.InitShared([]byte(c.doc))
		var tr Trial
		asInt := d.Sub()
		asInt.Int()
		tr.Offer(&asInt, 0, 0)
		asFloat := d.Sub()
		asFloat.Float()
		tr.Offer(&asFloat, 0, 0)
		tr.Finish(&d, c.oneOf)
		refused := len(d.Errs) > 0
		if refused != c.refuse {
			t.Errorf("%s (oneOf %v): refused %v, want %v (%v)", c.doc, c.oneOf, refused, c.refuse, d.Errs)
		}
		if d.OneOfUnsure != (c.refuse && c.doc == "1e30") {
			t.Errorf("%s (oneOf %v): OneOfUnsure %v", c.doc, c.oneOf, d.OneOfUnsure)
		}
	}
}

// bigObject is an object of n members "m0".."m{n-1}" (value 0) with extra
// text spliced in after member at (an empty extra adds nothing).
func bigObject(n, at int, extra string) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"m` + strconv.Itoa(i) + `":0`)
		if i == at {
			b.WriteString(extra)
		}
	}
	b.WriteString("}")
	return []byte(b.String())
}

// decodeMembers decodes an object of undeclared members only, as generated
// code does.
func decodeMembers(b []byte) (Members, error) {
	var d Decoder
	d.Init(b)
	var m Members
	var ix MemberIndex
	if d.Object() {
		for first := true; d.NextMember(&first); {
			if !d.ExtraMember(&m, &ix) {
				break
			}
		}
	}
	return m, d.Finish()
}

// TestExtraMemberReadAhead: past memberScanMax members the index reads the
// object ahead; every member is kept, in order, in one allocation, and a
// repeated name is refused wherever the two names are (both before the
// switch, one on each side, both after, spelled with an escape), at the
// second of them.
func TestExtraMemberReadAhead(t *testing.T) {
	m, err := decodeMembers(bigObject(1000, -1, ""))
	if err != nil || len(m) != 1000 || m[999].Name != "m999" || string(m[500].Value) != "0" {
		t.Fatalf("len %d, err %v", len(m), err)
	}
	if cap(m) > 1100 {
		t.Errorf("cap %d for 1000 members: not sized by the read ahead", cap(m))
	}
	for _, c := range []struct {
		at    int
		extra string
		name  string
	}{
		{5, `,"m1":1`, "m1"},                      // both before the switch
		{10, `,"m900":1`, "m900"},                 // before the switch, the other ahead
		{100, `,"m7":1`, "m7"},                    // ahead, the other before
		{600, `,"m\u0032\u0030\u0030":1`, "m200"}, // both ahead, one escaped
		{998, `,"m33":1`, "m33"},                  // the current key of the switch
	} {
		b := bigObject(1000, c.at, c.extra)
		_, err := decodeMembers(b)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Duplicate != c.name {
			t.Errorf("%s after m%d: err %v", c.extra, c.at, err)
			continue
		}
		// The error is after the colon of the second name, as without
		// the read ahead.
		want := int64(strings.Index(string(b), c.extra) + len(c.extra) - 1)
		if c.name == "m900" { // the second is the object's own
			want = int64(strings.LastIndex(string(b), `"m900":`) + len(`"m900":`))
		}
		if se.Offset != want {
			t.Errorf("%s: offset %d, want %d", c.extra, se.Offset, want)
		}
	}
	// Two repeated names: the first in input order is reported.
	b := bigObject(1000, 800, `,"m500":1`)
	b = append(b[:len(b)-1], `,"m100":2}`...)
	if _, err := decodeMembers(b); err == nil || !strings.Contains(err.Error(), `"m500"`) {
		t.Errorf("two repeats: %v", err)
	}
	// A syntax error ahead: decoding still reports it.
	b = bigObject(1000, 700, `,"x" 1`)
	if _, err := decodeMembers(b); err == nil || !strings.Contains(err.Error(), "expected ':'") {
		t.Errorf("syntax error ahead: %v", err)
	}
}

// TestSkipManyNames: skip's pooled hash check finds a repeated name in a
// large object, nested in another large one or not, and accepts distinct
// names (also names whose hashes are made to collide).
func TestSkipManyNames(t *testing.T) {
	t.Run("refs", testSkipManyNames)
	// Inputs too large for refs (2 GiB) use sets and scans instead.
	refLimit = 0
	defer func() { refLimit = refOther }()
	t.Run("sets", testSkipManyNames)
	t.Run("members", TestExtraMemberReadAhead)
}

func testSkipManyNames(t *testing.T) {
	inner := string(bigObject(300, -1, ""))
	for _, c := range []struct {
		doc  string
		name string
	}{
		{string(bigObject(300, -1, "")), ""},
		{string(bigObject(300, 250, `,"m3":1`)), "m3"},
		{string(bigObject(300, 100, `,"in":`+inner)), ""},
		{string(bigObject(300, 100, `,"in":`+string(bigObject(300, 20, `,"m290":1`)))), "m290"},
		{string(bigObject(300, 100, `,"in":`+inner+`,"m299":1`)), "m299"},
		// A large object inside a small one, whose names stay checked.
		{`{"a":1,"b":2,"in":` + inner + `,"c":3}`, ""},
		{`{"a":1,"b":2,"in":` + inner + `,"b":3}`, "b"},
		{`[{"a":1,"in":[` + inner + `,` + inner + `],"z":{"a":1}}]`, ""},
	} {
		d := Decoder{Data: []byte(c.doc)}
		d.Skip()
		err := d.Finish()
		var se *SyntaxError
		switch {
		case c.name == "" && err != nil:
			t.Errorf("%.40s: %v", c.doc, err)
		case c.name != "" && (!errors.As(err, &se) || se.Duplicate != c.name):
			t.Errorf("%.40s: err %v, want a duplicate %q", c.doc, err, c.name)
		}
	}
	if refLimit == 0 {
		return
	}
	// Equal hashes, different names: not a duplicate.
	ref := func(h uint32, off int) keyRef { return keyRef(uint64(h)<<32 | uint64(off)) }
	refs := []keyRef{ref(1, 20), ref(1, 10), ref(2, 30)}
	names := map[int]string{10: "a", 20: "b", 30: "a", refOther: "c"}
	if off := firstDup(refs, func(r keyRef) string { return names[r.off()] }); off != -1 {
		t.Errorf("a collision taken for a duplicate at %d", off)
	}
	refs = []keyRef{ref(1, 10), ref(1, 40), ref(1, 20)}
	names[40] = "a"
	if off := firstDup(refs, func(r keyRef) string { return names[r.off()] }); off != 40 {
		t.Errorf("duplicate at %d, want 40", off)
	}
	// A name the caller has (not in the input) comes first.
	refs = []keyRef{ref(1, refOther), ref(1, 50)}
	names[50] = "c"
	if off := firstDup(refs, func(r keyRef) string { return names[r.off()] }); off != 50 {
		t.Errorf("duplicate at %d, want 50", off)
	}
}

// TestSkipDeep: skip's stack and names outgrow their arrays into the
// scratch; a repeated name deep down is still found, and a deep document
// is still read whole.
func TestSkipDeep(t *testing.T) {
	const depth = 5000
	for _, c := range []struct {
		doc, dup string
	}{
		{strings.Repeat("[", depth) + strings.Repeat("]", depth), ""},
		{strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth), ""},
		{strings.Repeat(`{"a":1,"b":`, depth) + `{"x":1,"x":2}` + strings.Repeat("}", depth), "x"},
		{strings.Repeat(`{"a":1,"b":`, depth) + "1" + strings.Repeat(`,"a":2}`, depth), "a"},
	} {
		d := Decoder{Data: []byte(c.doc)}
		d.Skip()
		err := d.Finish()
		var se *SyntaxError
		switch {
		case c.dup == "" && err != nil:
			t.Errorf("%.20s: %v", c.doc, err)
		case c.dup != "" && (!errors.As(err, &se) || se.Duplicate != c.dup):
			t.Errorf("%.20s: %v, want a duplicate %q", c.doc, err, c.dup)
		}
	}
}
