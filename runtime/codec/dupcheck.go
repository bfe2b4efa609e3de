package codec

import (
	"hash/maphash"
	"slices"
)

// Finding duplicate member names in large objects with memory that does
// not grow with them: the names of an object are recorded as (hash,
// offset) pairs in a pooled slice, sorted when the object ends, and only
// names whose hashes are equal are read again and compared. A decode
// allocates nothing for it once the pool holds a slice large enough, where
// a set of the names costs tens of bytes a member.

// keyRef is one member name of an object: the high 32 bits of the hash of
// its (unescaped) name, and in the low 32 bits the offset of its opening
// quote, or for a name that is not in the input (the i-th of names the
// caller has), refOther+i. Sorted, the refs of one name are adjacent and in
// input order.
type keyRef uint64

// refOther is where the low half of a keyRef counts names not in the
// input; offsets must be below it (refsFit).
const refOther = 1 << 31

func makeRef(name string, off int) keyRef {
	return keyRef(maphash.String(keySeed, name)>>32<<32 | uint64(off))
}

func (r keyRef) hash() uint32 { return uint32(r >> 32) }
func (r keyRef) off() int     { return int(uint32(r)) }

// inputOrder is r's offset, or -1 for a name not in the input.
func inputOrder(r keyRef) int {
	if r.off() >= refOther {
		return -1
	}
	return r.off()
}

// refsFit says whether the offsets of data fit a keyRef; larger inputs
// (2 GiB and more) keep the checks that need no refs.
func refsFit(data []byte) bool { return len(data) < refLimit }

// refLimit is refOther; tests lower it to reach the checks without refs.
var refLimit = refOther

// keySeed seeds the hashes of member names. The hash only sorts names into
// groups to compare, so a collision costs a comparison, never a wrong
// answer; the process-wide random seed keeps collisions from being chosen
// by the input.
var keySeed = maphash.MakeSeed()

// keyRefs is reusable scratch space of the checks of large objects: the
// refs, and the stack and names of skip once they outgrow its arrays.
type keyRefs struct {
	s      []keyRef
	frames []skipFrame
	keys   []skipKey
	sets   map[int]map[string]bool
}

// freeRefs keeps a few slices of refs for the next large object. A
// sync.Pool would not do: a large message makes the collector run during
// its own decoding, which empties a pool, so every request would grow its
// slice anew. At most cap(freeRefs) slices of at most maxKeptRefs refs
// stay allocated (about 20 MiB in all at most).
var freeRefs = make(chan *keyRefs, 2)

// maxKeptRefs bounds the slices freeRefs keeps.
const maxKeptRefs = 1 << 19

func getKeyRefs() *keyRefs {
	select {
	case r := <-freeRefs:
		return r
	default:
		return &keyRefs{s: make([]keyRef, 0, 1024)}
	}
}

func putKeyRefs(r *keyRefs) {
	if r == nil || cap(r.s) > maxKeptRefs || cap(r.keys) > maxKeptRefs/4 {
		return
	}
	r.s = r.s[:0]
	r.frames = r.frames[:0]
	clear(r.keys[:cap(r.keys)]) // keep no strings of the input alive
	r.keys = r.keys[:0]
	r.sets = nil
	select {
	case freeRefs <- r:
	default:
	}
}

// add appends x, doubling the slice when it is full (append grows large
// slices by a quarter, which allocates five times the final size in all).
func (r *keyRefs) add(x keyRef) {
	if len(r.s) == cap(r.s) {
		r.s = append(make([]keyRef, 0, 2*cap(r.s)+1024), r.s...)
	}
	r.s = append(r.s, x)
}

// firstDup returns the offset of the first name in input order that
// repeats a name before it among refs (which it sorts), or -1 when the
// names are distinct. name reads the name a keyRef stands for.
func firstDup(refs []keyRef, name func(keyRef) string) int {
	slices.Sort(refs)
	first := -1
	for i := 1; i < len(refs); i++ {
		if refs[i].hash() != refs[i-1].hash() {
			continue
		}
		// A group of equal hashes (in offset order): one name repeated,
		// or now and then two names whose hashes agree; compare each
		// to those before it.
		j := i
		for j < len(refs) && refs[j].hash() == refs[i-1].hash() {
			j++
		}
		group := refs[i-1 : j]
		for a := 1; a < len(group); a++ {
			na := name(group[a])
			for b := range a {
				if name(group[b]) != na {
					continue
				}
				// The later of the two in input order; names not in
				// the input come before it.
				later := max(inputOrder(group[a]), inputOrder(group[b]))
				if later >= 0 && (first < 0 || later < first) {
					first = later
				}
			}
		}
		i = j - 1
	}
	return first
}

// nameAt reads the member name whose opening quote is at off.
func (d *Decoder) nameAt(off int) string {
	r := Decoder{Data: d.Data, Pos: off}
	k, _ := r.ReadStr()
	return k
}

// dupAt records the duplicate name whose opening quote is at off.
func (d *Decoder) dupAt(off int) {
	r := Decoder{Data: d.Data, Pos: off}
	k, _ := r.ReadStr()
	d.Pos = r.Pos
	d.Dup(k)
}
