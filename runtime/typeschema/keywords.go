package typeschema

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// The schema keywords of an mcp tag beyond enum=, titles=, enumNames= and
// header=:
//
//	minimum=, maximum=, exclusiveMinimum=, exclusiveMaximum=  numbers
//	minLength=, maxLength=, pattern=, format=                 strings
//	minItems=, maxItems=                                      slices and arrays
//	default=, example=                                        any (a JSON value, or a string's text,
//	                                                          or a slice of strings as a|b)
//
// A tag's options are comma-separated, so a pattern or a value cannot hold
// a comma. A default must be a value the member takes (of its type, within
// its enum and bounds), or the codec is not built. The schema states them, and decoding refuses a value against
// them like one of the wrong type.

// argKeywords are the keywords of one member.
type argKeywords struct {
	// Numbers: the text as written (for the schema) and its value.
	minimum, maximum, exclMin, exclMax string
	minV, maxV, exclMinV, exclMaxV     float64
	minLen, maxLen, minItems, maxItems int // -1: none
	pattern                            *regexp.Regexp
	format                             string
	formatCheck                        func(string) bool
	def                                []byte   // default, as JSON
	examples                           [][]byte // examples, as JSON
}

// keyword applies one key=val option of an mcp tag to n (the member's
// type, pointers followed).
func (n *argNode) keyword(key, val, path string) error {
	if n.kw == nil {
		n.kw = &argKeywords{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	}
	k := n.kw
	numeric := n.kind == argInt || n.kind == argUint || n.kind == argFloat
	isString := n.kind == argString || n.kind == argText
	isList := n.kind == argSlice || n.kind == argArray
	wrong := func(what string) error {
		return errors.New(path + ": mcp tag " + key + "= applies to " + what + ", not " + n.typ.String())
	}
	number := func(dst *string, v *float64) error {
		if !numeric {
			return wrong("numbers")
		}
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || !json.Valid([]byte(val)) {
			return errors.New(path + ": mcp tag " + key + "=" + val + ": not a number")
		}
		*dst, *v = val, f
		return nil
	}
	count := func(dst *int, ok bool, what string) error {
		if !ok {
			return wrong(what)
		}
		c, err := strconv.Atoi(val)
		if err != nil || c < 0 {
			return errors.New(path + ": mcp tag " + key + "=" + val + ": not a count")
		}
		*dst = c
		return nil
	}
	switch key {
	case "minimum":
		return number(&k.minimum, &k.minV)
	case "maximum":
		return number(&k.maximum, &k.maxV)
	case "exclusiveMinimum":
		return number(&k.exclMin, &k.exclMinV)
	case "exclusiveMaximum":
		return number(&k.exclMax, &k.exclMaxV)
	case "minLength":
		return count(&k.minLen, isString, "strings")
	case "maxLength":
		return count(&k.maxLen, isString, "strings")
	case "minItems":
		return count(&k.minItems, isList, "slices and arrays")
	case "maxItems":
		return count(&k.maxItems, isList, "slices and arrays")
	case "pattern":
		if !isString {
			return wrong("strings")
		}
		re, err := regexp.Compile(val)
		if err != nil {
			return errors.New(path + ": mcp tag pattern=" + val + ": " + err.Error())
		}
		k.pattern = re
	case "format":
		if !isString {
			return wrong("strings")
		}
		if val == "" {
			return errors.New(path + ": mcp tag format= names no format")
		}
		k.format, k.formatCheck = val, codec.FormatChecker(val)
	case "default", "example":
		b := []byte(val)
		switch {
		case isString && !strings.HasPrefix(val, `"`):
			b = jsonString(val)
		case isList && n.elem.kind == argString && !strings.HasPrefix(val, "["):
			// The strings of a multiple choice, separated by | (a tag's
			// value cannot hold the commas of a JSON array).
			b, _ = json.Marshal(strings.Split(val, "|"))
		case !json.Valid(b):
			return errors.New(path + ": mcp tag " + key + "=" + val + ": not a JSON value")
		}
		if key == "default" {
			k.def = b
		} else {
			k.examples = append(k.examples, b)
		}
	default:
		return errors.New(path + ": unknown mcp tag option " + strconv.Quote(key) + " (want enum, titles, enumNames, header, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems, maxItems, pattern, format, default or example)")
	}
	return nil
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// writeSchema writes the keywords as members of the member's schema.
func (k *argKeywords) writeSchema(e *codec.Encoder) {
	num := func(name, v string) {
		if v != "" {
			e.Name(`"` + name + `":`)
			e.Buf = append(e.Buf, v...)
		}
	}
	num("minimum", k.minimum)
	num("maximum", k.maximum)
	num("exclusiveMinimum", k.exclMin)
	num("exclusiveMaximum", k.exclMax)
	cnt := func(name string, v int) {
		if v >= 0 {
			e.Name(`"` + name + `":`)
			e.Int(int64(v))
		}
	}
	cnt("minLength", k.minLen)
	cnt("maxLength", k.maxLen)
	cnt("minItems", k.minItems)
	cnt("maxItems", k.maxItems)
	if k.pattern != nil {
		e.Name(`"pattern":`)
		e.Str(k.pattern.String())
	}
	if k.format != "" {
		e.Name(`"format":`)
		e.Str(k.format)
	}
	if k.def != nil {
		e.Name(`"default":`)
		e.Raw(k.def)
	}
	if len(k.examples) > 0 {
		e.Name(`"examples":`)
		e.Buf = append(e.Buf, '[')
		for _, x := range k.examples {
			e.Comma()
			e.Raw(x)
		}
		e.Buf = append(e.Buf, ']')
	}
}

// check records a violation of the keywords by v, read at off.
func (k *argKeywords) check(d *codec.Decoder, off int, v reflect.Value) {
	var f float64
	isNum := true
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f = float64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f = float64(v.Uint())
	case reflect.Float32, reflect.Float64:
		f = v.Float()
	default:
		isNum = false
	}
	got := func() string { return strconv.FormatFloat(f, 'g', -1, 64) }
	if isNum {
		switch {
		case k.minimum != "" && f < k.minV:
			d.Violate(off, "minimum", "must be >= "+k.minimum+", got "+got())
		case k.maximum != "" && f > k.maxV:
			d.Violate(off, "maximum", "must be <= "+k.maximum+", got "+got())
		case k.exclMin != "" && f <= k.exclMinV:
			d.Violate(off, "exclusiveMinimum", "must be > "+k.exclMin+", got "+got())
		case k.exclMax != "" && f >= k.exclMaxV:
			d.Violate(off, "exclusiveMaximum", "must be < "+k.exclMax+", got "+got())
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		n := utf8.RuneCountInString(s)
		switch {
		case k.minLen >= 0 && n < k.minLen:
			d.Violate(off, "minLength", "must be at least "+strconv.Itoa(k.minLen)+" characters long, got "+strconv.Itoa(n))
		case k.maxLen >= 0 && n > k.maxLen:
			d.Violate(off, "maxLength", "must be at most "+strconv.Itoa(k.maxLen)+" characters long, got "+strconv.Itoa(n))
		case k.pattern != nil && !k.pattern.MatchString(s):
			d.Violate(off, "pattern", codec.Quote(s)+" does not match "+codec.Quote(k.pattern.String()))
		case k.formatCheck != nil && !k.formatCheck(s):
			d.Violate(off, "format", codec.Quote(s)+" is not a valid "+k.format)
		}
	case reflect.Slice, reflect.Array:
		n := v.Len()
		switch {
		case k.minItems >= 0 && n < k.minItems:
			d.Violate(off, "minItems", "must have at least "+strconv.Itoa(k.minItems)+" items, got "+strconv.Itoa(n))
		case k.maxItems >= 0 && n > k.maxItems:
			d.Violate(off, "maxItems", "must have at most "+strconv.Itoa(k.maxItems)+" items, got "+strconv.Itoa(n))
		}
	}
}
