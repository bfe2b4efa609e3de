package bench

import (
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/generated/mcp20260728"
	"github.com/mcpgen/mcpgen/schema"
)

// Every corpus benchmark times one pass over a set of examples per op and
// reports, besides ns/op, B/op and allocs/op:
//
//	ns/byte      ns/op divided by the bytes of the set (b.SetBytes gives MB/s)
//	cpu-ns/byte  the same with the process's CPU time (all threads, the
//	             garbage collector's included) instead of wall time: on a
//	             machine that other work shares, it moves less than ns/byte
//	allocs/KB    heap allocations per 1024 bytes of the set
//	examples     how many examples the set holds (129 is the whole corpus)
func corpusLoop(b *testing.B, set []Example, body func(i int, e *Example)) {
	b.Helper()
	if len(set) == 0 {
		b.Fatal("no examples")
	}
	size := Size(set)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0 := cpuNanos()
	for b.Loop() {
		for i := range set {
			body(i, &set[i])
		}
	}
	cpu1 := cpuNanos()
	runtime.ReadMemStats(&m1)
	n := float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(size), "ns/byte")
	b.ReportMetric(float64(cpu1-cpu0)/n/float64(size), "cpu-ns/byte")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/n/(float64(size)/1024), "allocs/KB")
	b.ReportMetric(float64(len(set)), "examples")
}

// 1. The floor: json.Valid over each example.
func BenchmarkJSONValid(b *testing.B) {
	corpusLoop(b, theCorpus(b), func(_ int, e *Example) {
		if !json.Valid(e.Data) {
			b.Fatalf("%s: not valid", e.ID())
		}
	})
}

// 2. json.Unmarshal into any.
func BenchmarkJSONUnmarshalAny(b *testing.B) {
	corpusLoop(b, theCorpus(b), func(_ int, e *Example) {
		var v any
		if err := json.Unmarshal(e.Data, &v); err != nil {
			b.Fatal(err)
		}
	})
}

// 3, 4. Decode (UseNumber) and validate against #/$defs/<Definition>,
// compiled once outside the timed loop, format assertions on.
func benchValidator(b *testing.B, compile func([]byte, []string) (map[string]Validator, error)) {
	c := theCorpus(b)
	vs, err := compile(theSchema(b, Revision), definitions(c))
	if err != nil {
		b.Fatal(err)
	}
	corpusLoop(b, c, func(_ int, e *Example) {
		if err := vs[e.Definition](e.Data); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
	})
}

func BenchmarkJSONSchemaV5DecodeValidate(b *testing.B) { benchValidator(b, V5) }
func BenchmarkJSONSchemaV6DecodeValidate(b *testing.B) { benchValidator(b, V6) }

// 5, 6. The SDKs' types, on the examples each has a type for.
func benchAnchor(b *testing.B, a *Anchor, encode bool) {
	set := a.Covered(theCorpus(b))
	maps := make([]Mapping, len(set))
	for i, e := range set {
		maps[i] = a.Map[e.Definition]
	}
	corpusLoop(b, set, func(i int, e *Example) {
		m := maps[i]
		v, err := m.Decode(e.Data)
		if err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
		if encode {
			if _, err := m.Marshal(v); err != nil {
				b.Fatalf("%s: %v", e.ID(), err)
			}
		}
	})
}

func BenchmarkGoSDKDecode(b *testing.B)       { benchAnchor(b, &GoSDK, false) }
func BenchmarkGoSDKDecodeEncode(b *testing.B) { benchAnchor(b, &GoSDK, true) }
func BenchmarkMCPGoDecode(b *testing.B)       { benchAnchor(b, &MCPGo, false) }
func BenchmarkMCPGoDecodeEncode(b *testing.B) { benchAnchor(b, &MCPGo, true) }

// 7. mcpgen's generated types, all 129 examples.
func benchMcpgen(b *testing.B, encode bool) {
	var buf []byte
	corpusLoop(b, theCorpus(b), func(_ int, e *Example) {
		v, ok := mcp20260728.NewValue(e.Definition)
		if !ok {
			b.Fatalf("no type for %s", e.Definition)
		}
		if err := v.UnmarshalJSON(e.Data); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
		if err := v.Validate(); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
		if encode {
			var err error
			if buf, err = v.AppendJSON(buf[:0]); err != nil {
				b.Fatalf("%s: %v", e.ID(), err)
			}
		}
	})
}

func BenchmarkMcpgenDecodeValidate(b *testing.B)       { benchMcpgen(b, false) }
func BenchmarkMcpgenDecodeValidateEncode(b *testing.B) { benchMcpgen(b, true) }

// Validate alone, on values decoded before the timed loop.
func BenchmarkMcpgenValidate(b *testing.B) {
	c := theCorpus(b)
	vals := make([]mcp20260728.Value, len(c))
	for i, e := range c {
		v, _ := mcp20260728.NewValue(e.Definition)
		if err := v.UnmarshalJSON(e.Data); err != nil {
			b.Fatal(err)
		}
		vals[i] = v
	}
	corpusLoop(b, c, func(i int, e *Example) {
		if err := vals[i].Validate(); err != nil {
			b.Fatalf("%s: %v", e.ID(), err)
		}
	})
}

// The generator. Each op generates whole packages in memory with
// gen.Generate. Besides ns/op, B/op and allocs/op it reports:
//
//	wall-ms       wall time of one run made before the timed loop
//	cpu-ms        CPU time of the process per op (all threads)
//	peak-heap-MB  the most heap (live and not yet collected objects) above
//	              the heap before that run, sampled every 100µs during it
//	alloc-MB      bytes allocated per op (B/op in MB)
//	input-KB      the size of the schemas read per op
type genInput struct {
	rev  string
	data []byte
}

func genRun(b *testing.B, in []genInput) {
	for _, g := range in {
		files, _, err := gen.Generate(g.rev+"/schema.json", g.data, gen.Options{Package: schema.PackageName(g.rev), Revision: g.rev})
		if err != nil {
			b.Fatalf("%s: %v", g.rev, err)
		}
		if len(files) == 0 {
			b.Fatalf("%s: no files", g.rev)
		}
	}
}

func benchGenerate(b *testing.B, in []genInput) {
	b.ReportAllocs()
	runtime.GC()
	t0 := time.Now()
	genRun(b, in)
	wall := time.Since(t0)
	peak := peakHeap(func() { genRun(b, in) })

	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0 := cpuNanos()
	for b.Loop() {
		genRun(b, in)
	}
	cpu1 := cpuNanos()
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e6, "cpu-ms")
	b.ReportMetric(float64(wall.Nanoseconds())/1e6, "wall-ms")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/1e6, "alloc-MB")
	size := 0
	for _, g := range in {
		size += len(g.data)
	}
	b.ReportMetric(float64(size)/1e3, "input-KB")
}

// peakHeap runs f and returns the largest heap it reached above the heap
// (after a collection) before it.
func peakHeap(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var (
		peak uint64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	peak = max(peak, read())
	if peak < base {
		return 0
	}
	return peak - base
}

func BenchmarkGenerateFiveRevisions(b *testing.B) {
	var in []genInput
	for _, rev := range Revisions {
		in = append(in, genInput{rev, theSchema(b, rev)})
	}
	benchGenerate(b, in)
}

func BenchmarkGenerate20260728(b *testing.B) {
	benchGenerate(b, []genInput{{Revision, theSchema(b, Revision)}})
}

func BenchmarkGenerateSynthetic10x(b *testing.B) {
	syn, err := Synthetic(theSchema(b, Revision), 10)
	if err != nil {
		b.Fatal(err)
	}
	benchGenerate(b, []genInput{{Revision, syn}})
}

// The scaling cases of the generator (issue 14): a 100k-value enum, a
// 10k-deep "$ref" chain, 1k levels of nested objects and 20k definitions,
// each next to the same case a tenth the size. The table reports each
// one's time and peak heap as ratios to BenchmarkGenerate20260728 of the
// same run, and checks that ten times the input takes at most 12 times the
// time (linear: 10; before issue 14 the enum took 78.6 s, the chain
// 10.7 s, and nesting grew with the square of the depth).
func BenchmarkScaleEnum10k(b *testing.B)        { benchScale(b, EnumSchema(10_000)) }
func BenchmarkScaleEnum100k(b *testing.B)       { benchScale(b, EnumSchema(100_000)) }
func BenchmarkScaleRefChain1k(b *testing.B)     { benchScale(b, RefChainSchema(1_000)) }
func BenchmarkScaleRefChain10k(b *testing.B)    { benchScale(b, RefChainSchema(10_000)) }
func BenchmarkScaleNesting100(b *testing.B)     { benchScale(b, NestingSchema(100)) }
func BenchmarkScaleNesting1k(b *testing.B)      { benchScale(b, NestingSchema(1_000)) }
func BenchmarkScaleDefinitions2k(b *testing.B)  { benchScale(b, DefinitionsSchema(2_000)) }
func BenchmarkScaleDefinitions20k(b *testing.B) { benchScale(b, DefinitionsSchema(20_000)) }

func benchScale(b *testing.B, data []byte) {
	benchGenerate(b, []genInput{{"scale", data}})
}
