package codec

import (
	"hash/maphash"
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
