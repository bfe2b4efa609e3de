package codec

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// ratOf is the exact value of a JSON number text.
func ratOf(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("%q is no number", s)
	}
	return r
}

// numberTexts are JSON numbers with the spellings that matter: signs,
// zeros, fractions, exponents, digits beyond float64 and int64.
var numberTexts = []string{
	"0", "-0", "0.0", "1", "-1", "2", "3", "10", "1.0", "1.5", "0.1", "0.3", "0.30", "3e-1",
	"0.30000000000000001", "7", "21", "1e2", "1E+2", "100", "-100", "0.0001", "1e-4", "4.5",
	"1e308", "1e400", "1e-400", "12345678901234567890", "123456789012345678901234567890",
	"9007199254740993", "0.000000000000000000000003", "3e-24", "1.00000000000000000001",
	"6.02214076e23", "2.5", "0.5", "0.25", "1e-9", "-7.5", "15", "0.75", "1e+21", "100000000000000000000000",
}

// TestMultipleOf compares MultipleOf with big.Rat arithmetic on every pair
// of numbers (the divisor positive) and on random ones.
func TestMultipleOf(t *testing.T) {
	check := func(x, m string) {
		rm := ratOf(t, m)
		if rm.Sign() <= 0 {
			return
		}
		want := new(big.Rat).Quo(ratOf(t, x), rm).IsInt()
		if got := MultipleOf([]byte(x), m); got != want {
			t.Errorf("MultipleOf(%s, %s) = %v, want %v", x, m, got, want)
		}
	}
	for _, x := range numberTexts {
		for _, m := range numberTexts {
			check(x, m)
		}
	}
	// A divisor of more than 19 digits takes the math/big path.
	check("123456789012345678901234567890", "12345678901234567890123")
	check("246913578024691357802469135780", "123456789012345678901234567890")
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		x := strconv.Itoa(rng.IntN(200000)-100000) + "e" + strconv.Itoa(rng.IntN(10)-5)
		m := strconv.Itoa(rng.IntN(99)+1) + "e" + strconv.Itoa(rng.IntN(8)-4)
		check(x, m)
	}
	if !MultipleOfInt(-21, "7") || MultipleOfInt(22, "7") || !MultipleOfInt(9, "1.5") {
		t.Error("MultipleOfInt")
	}
	if !MultipleOfFloat(0.3, "0.1") || MultipleOfFloat(0.35, "0.1") || !MultipleOfFloat(1e300, "1") {
		t.Error("MultipleOfFloat")
	}
}

// TestCmpNumber compares CmpNumber with big.Rat on every pair.
func TestCmpNumber(t *testing.T) {
	for _, a := range numberTexts {
		for _, b := range numberTexts {
			want := ratOf(t, a).Cmp(ratOf(t, b))
			if got := CmpNumber([]byte(a), b); got != want {
				t.Errorf("CmpNumber(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestEqualValue: JSON equality of texts, with what makes it subtle.
func TestEqualValue(t *testing.T) {
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{`1`, `1.0`, true}, {`1`, `1e0`, true}, {`-0`, `0`, true}, {`1`, `"1"`, false},
		{`"a\u0062"`, `"ab"`, true}, {`[1,2]`, `[1,2]`, true}, {`[1,2]`, `[2,1]`, false},
		{`[1]`, `[1,1]`, false}, {`{"a":1,"b":[2]}`, `{"b":[2.0],"a":1}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false}, {`{"a":1,"b":2}`, `{"a":1}`, false},
		{`{"a":1}`, `{"b":1}`, false}, {`{}`, `{}`, true}, {`{}`, `[]`, false},
		{`null`, `null`, true}, {`true`, `false`, false}, {`[{"a":{}}]`, `[{"a":{}}]`, true},
		{`{"a":{"x":1}}`, `{"a":{"x":2}}`, false},
	} {
		if got := JSONEqual([]byte(c.a), []byte(c.b)); got != c.eq {
			t.Errorf("JSONEqual(%s, %s) = %v, want %v", c.a, c.b, got, c.eq)
		}
		if got := EqualsConst([]byte(c.a), c.b); got != c.eq {
			t.Errorf("EqualsConst(%s, %s) = %v, want %v", c.a, c.b, got, c.eq)
		}
	}
}

func TestUniqueItems(t *testing.T) {
	for _, c := range []struct {
		doc  string
		i, j int
		dup  bool
	}{
		{`[]`, 0, 0, false}, {`[1]`, 0, 0, false}, {`[1,2,3]`, 0, 0, false},
		{`[1,2,1.0]`, 0, 2, true}, {`[{"a":1,"b":2},{"b":2,"a":1}]`, 0, 1, true},
		{`[[1],[1,1],[1]]`, 0, 2, true}, {`["a","b","c","b"]`, 1, 3, true},
		{`[0,false,null,"",[],{}]`, 0, 0, false}, {`{"a":1}`, 0, 0, false},
	} {
		d := Decoder{Data: []byte(c.doc)}
		i, j, dup := UniqueItems(&d)
		if dup != c.dup || dup && (i != c.i || j != c.j) {
			t.Errorf("UniqueItems(%s) = %d, %d, %v; want %d, %d, %v", c.doc, i, j, dup, c.i, c.j, c.dup)
		}
		if d.Pos != 0 {
			t.Errorf("UniqueItems(%s) moved the decoder", c.doc)
		}
	}
}

func TestEval(t *testing.T) {
	var e Eval
	for _, i := range []int{0, 63, 64, 127, 128, 200, 1000} {
		e.Set(i)
	}
	e.Prefix(3)
	for i := range 1100 {
		want := i < 3 || i == 63 || i == 64 || i == 127 || i == 128 || i == 200 || i == 1000
		if e.Has(i) != want {
			t.Fatalf("has(%d) = %v", i, e.Has(i))
		}
	}
	var f Eval
	f.Set(5)
	f.Set(300)
	f.Merge(&e)
	if !f.Has(5) || !f.Has(300) || !f.Has(1000) || !f.Has(1) || f.Has(6) {
		t.Error("merge")
	}
	f.All = true
	if !f.Has(6) {
		t.Error("all")
	}
}

// TestValidateHelpersAllocate: what a valid document needs allocates
// nothing.
func TestValidateHelpersAllocate(t *testing.T) {
	arr := []byte(`[{"a":1,"b":[1,2]},{"a":1,"b":[1,3]},"x",1.5,{"b":[1,2],"a":2}]`)
	obj := []byte(`{"x":[1,{"y":2}],"z":3.0}`)
	n := testing.AllocsPerRun(100, func() {
		d := Decoder{Data: arr}
		if _, _, dup := UniqueItems(&d); dup {
			t.Fatal("dup")
		}
		if !MultipleOf([]byte("0.30"), "0.1") || !MultipleOfFloat(1.5, "0.5") {
			t.Fatal("multipleOf")
		}
		if !EqualsConst(obj, `{"z":3,"x":[1,{"y":2}]}`) {
			t.Fatal("const")
		}
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
}
