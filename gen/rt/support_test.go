package rt

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
	var ix memberIndex
	d := decoder{data: []byte(strings.Repeat("0 ", memberScanMax+1))}
	for i := range memberScanMax + 1 {
		d.key = "k" + strings.Repeat("x", i)
		if !d.extraMember(&m, &ix) {
			t.Fatalf("member %d: %v", i, d.finish())
		}
	}
	if ix.hashes == nil {
		t.Fatal("the index did not switch to the set")
	}
	ix.hashes[maphash.String(ix.seed, "other")] = struct{}{}
	d = decoder{data: []byte(`1`)}
	d.key = "other"
	if !d.extraMember(&m, &ix) || m[len(m)-1].Name != "other" {
		t.Fatalf("a colliding name was taken for a duplicate: %v", d.finish())
	}
	d = decoder{data: []byte(`2`)}
	d.key = "kxx"
	if d.extraMember(&m, &ix) {
		t.Fatal("a duplicate was not found")
	}
	if err := d.finish(); err == nil || !strings.Contains(err.Error(), `duplicate member "kxx"`) {
		t.Errorf("err = %v", err)
	}
}
