package bench

import (
	"sync"
	"testing"
)

var (
	loadOnce  sync.Once
	corpus    []Example
	corpusErr error
)

// theCorpus returns the official examples, failing the test or benchmark
// (with the reason) when they cannot be read.
func theCorpus(tb testing.TB) []Example {
	tb.Helper()
	loadOnce.Do(func() { corpus, corpusErr = Corpus() })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpus
}

func theSchema(tb testing.TB, revision string) []byte {
	tb.Helper()
	b, err := Schema(revision)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func definitions(examples []Example) []string {
	var defs []string
	seen := map[string]bool{}
	for _, e := range examples {
		if !seen[e.Definition] {
			seen[e.Definition] = true
			defs = append(defs, e.Definition)
		}
	}
	return defs
}
