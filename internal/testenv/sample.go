package testenv

import (
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"strings"
	"testing"
)

// SampleEnv names the environment variable that picks the slice of cases
// the sampled tests run under -short: "k/n" runs slice k of n (0 <= k < n),
// "all" runs every case. The default is 0/8. `make test-short` passes it
// through, so MCPGEN_SAMPLE=3/8 make test-short runs another eighth; going
// through k = 0..n-1 covers every case.
const SampleEnv = "MCPGEN_SAMPLE"

// A Sampler says which cases of a long test run. Without -short (or with
// MCPGEN_SAMPLE=all) it keeps every case. Under -short it keeps a case when
// the FNV-1a hash of its key is k modulo n: the same cases on every run
// with the same MCPGEN_SAMPLE, and a case keeps its slice when others are
// added or removed.
type Sampler struct {
	k, n uint32 // n == 0: every case
}

// Sample returns the Sampler of the running test: every case without
// -short, else the slice MCPGEN_SAMPLE names (0/8 when unset). A malformed
// MCPGEN_SAMPLE fails the test. The test logs the slice it runs.
func Sample(t testing.TB) Sampler {
	t.Helper()
	if !testing.Short() {
		return Sampler{}
	}
	s, err := ParseSample(os.Getenv(SampleEnv))
	if err != nil {
		t.Fatalf("testenv: %s: %v", SampleEnv, err)
	}
	if s.n != 0 {
		t.Logf("-short: running slice %d/%d of the cases (%s=k/n picks another, %s=all runs all)", s.k, s.n, SampleEnv, SampleEnv)
	}
	return s
}

// ParseSample parses a MCPGEN_SAMPLE value: "" (0/8), "all" or "k/n".
func ParseSample(v string) (Sampler, error) {
	switch v {
	case "":
		return Sampler{k: 0, n: 8}, nil
	case "all":
		return Sampler{}, nil
	}
	ks, ns, ok := strings.Cut(v, "/")
	k, err1 := strconv.ParseUint(ks, 10, 32)
	n, err2 := strconv.ParseUint(ns, 10, 32)
	if !ok || err1 != nil || err2 != nil || n == 0 || k >= n {
		return Sampler{}, fmt.Errorf("%q is not k/n with 0 <= k < n, nor all", v)
	}
	if n == 1 {
		return Sampler{}, nil
	}
	return Sampler{k: uint32(k), n: uint32(n)}, nil
}

// All reports whether every case runs.
func (s Sampler) All() bool { return s.n == 0 }

// Fraction returns n of k/n: 1 when every case runs.
func (s Sampler) Fraction() int {
	if s.n == 0 {
		return 1
	}
	return int(s.n)
}

// Keep reports whether the case named key runs.
func (s Sampler) Keep(key string) bool {
	if s.n == 0 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32()%s.n == s.k
}

// Index returns k of k/n: 0 when every case runs. Tests whose cases are a
// few seeded batches use it to pick the batch.
func (s Sampler) Index() int { return int(s.k) }
