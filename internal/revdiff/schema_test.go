package revdiff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cli"
	"github.com/mcpgen/mcpgen/internal/revdiff"
	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/schema"
)

// runDiff runs mcpgen diff with args and returns its stdout.
func runDiff(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := cli.Env{Stdout: &stdout, Stderr: &stderr,
		Locator: &schema.Locator{SchemaDir: testenv.SchemaDir(t), Offline: true}}
	if code := cli.Run(context.Background(), append([]string{"diff"}, args...), env); code != cli.ExitOK {
		t.Fatalf("mcpgen diff %s exited %d; stderr:\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// TestDiffConstraints diffs two schemas that differ by added bounds, a
// pattern, a format, an item count, an enum value, a required member and a
// description: every change is listed, with whom it can break, in JSON and
// in text.
func TestDiffConstraints(t *testing.T) {
	args := []string{"--from", "draft-a", "--to", "draft-b", "--from-schema", "testdata/constraints_from.json", "--to-schema", "testdata/constraints_to.json"}
	var report revdiff.Report
	if err := json.Unmarshal([]byte(runDiff(t, append(args, "--format", "json", "--descriptions")...)), &report); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range report.Schema {
		got = append(got, fmt.Sprintf("%s %s %s %s->%s %v", c.Path, c.Keyword, c.Change, c.From, c.To, c.Breaks))
	}
	want := []string{
		`EchoRequest/properties/params required added ->"level" [client-sent go-api]`,
		`EchoRequest/properties/params/properties/tags maxItems added ->8 [client-sent]`,
		`EchoRequest/properties/params/properties/tags/items format added ->"uri" [client-sent]`,
		`EchoRequest/properties/params/properties/text description changed "What to echo."->"The text to echo." []`,
		`EchoRequest/properties/params/properties/text maxLength added ->1000 [client-sent]`,
		`EchoRequest/properties/params/properties/text pattern added ->"^[^\\u0000]*$" [client-sent]`,
		`EchoResult/properties/ttlMs maximum added ->86400000 [server-sent]`,
		`Level enum added ->"warning" [client-sent go-api]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("schema changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text := runDiff(t, args...)
	for _, line := range []string{
		`+ EchoResult/properties/ttlMs: maximum added 86400000 [server-sent]`,
		`+ EchoRequest/properties/params: required added "level" [client-sent, go-api]`,
		`+ Level: enum added "warning" [client-sent, go-api]`,
		`+ EchoRequest/properties/params/properties/text: pattern added "^[^\\u0000]*$" [client-sent]`,
	} {
		if !strings.Contains(text, line) {
			t.Errorf("the text report lacks %q:\n%s", line, text)
		}
	}
	if strings.Contains(text, "description") {
		t.Errorf("the text report lists a description without --descriptions:\n%s", text)
	}
}

// TestDiffAgainstStructural checks the schema changes of every pair of
// adjacent pinned revisions against a structural diff of the two JSON
// documents written here: every difference of the documents is covered by
// a reported change, and every reported change is a difference of the
// documents.
func TestDiffAgainstStructural(t *testing.T) {
	revs := schema.Revisions()
	for i := 0; i+1 < len(revs); i++ {
		from, to := revs[i], revs[i+1]
		t.Run(from+"_"+to, func(t *testing.T) {
			var report revdiff.Report
			if err := json.Unmarshal([]byte(runDiff(t, "--from", from, "--to", to, "--format", "json", "--descriptions")), &report); err != nil {
				t.Fatal(err)
			}
			diffs := structural(t, defsOf(t, from), defsOf(t, to))
			if len(diffs) == 0 || len(report.Schema) == 0 {
				t.Fatalf("%d structural differences, %d reported", len(diffs), len(report.Schema))
			}
			var reported []string
			for _, c := range report.Schema {
				reported = append(reported, c.Path+"/"+c.Keyword)
				if c.Change == "added" || c.Change == "removed" {
					reported = append(reported, c.Path) // covers what is under it
				}
			}
			// A difference is covered by a change at it or above it, or, for
			// an array the structural diff compares whole, inside it.
			covered := func(p string) bool {
				for _, r := range reported {
					if p == r || strings.HasPrefix(p, r+"/") || strings.HasPrefix(r, p+"/") {
						return true
					}
				}
				return false
			}
			missed := 0
			for _, d := range diffs {
				if !covered(d) {
					missed++
					if missed <= 20 {
						t.Errorf("the documents differ at %s; no change reports it", d)
					}
				}
			}
			for _, c := range report.Schema {
				p := c.Path + "/" + c.Keyword
				if c.Keyword == "property" || c.Keyword == "definition" || strings.HasSuffix(c.Path, "/"+c.Keyword) {
					p = c.Path
				}
				if !slices.ContainsFunc(diffs, func(d string) bool { return d == p || strings.HasPrefix(d, p+"/") || strings.HasPrefix(p, d+"/") }) {
					t.Errorf("reported %+v, but the documents do not differ at %s", c, p)
				}
			}
		})
	}
}

// defsOf is the definitions of a pinned revision's schema as plain JSON.
func defsOf(t *testing.T, rev string) map[string]any {
	data, err := os.ReadFile(filepath.Join(testenv.SchemaDir(t), rev, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := doc[k].(map[string]any); ok {
			return d
		}
	}
	t.Fatalf("%s: no definitions", rev)
	return nil
}

// structural lists the paths (definition name, then JSON pointer inside
// it) where two JSON trees differ. Arrays of scalars (enum, required,
// type) are compared as sets; other arrays element by element; $ref
// texts are compared after writing #/definitions/ as #/$defs/ (draft-07
// and 2020-12 name the same definition so).
func structural(t *testing.T, a, b map[string]any) []string {
	var out []string
	var walk func(path string, x, y any)
	walk = func(path string, x, y any) {
		switch {
		case x == nil || y == nil:
			key := path[strings.LastIndex(path, "/")+1:]
			if !allowsAll[key] || !empty(x) || !empty(y) {
				out = append(out, path)
			}
			return
		}
		xm, xok := x.(map[string]any)
		ym, yok := y.(map[string]any)
		if xok && yok {
			keys := map[string]bool{}
			for k := range xm {
				keys[k] = true
			}
			for k := range ym {
				keys[k] = true
			}
			for k := range keys {
				walk(path+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), xm[k], ym[k])
			}
			return
		}
		xa, xok := x.([]any)
		ya, yok := y.([]any)
		if xok && yok {
			if scalars(xa) && scalars(ya) || onlyRefs(xa) && onlyRefs(ya) {
				if !sameSet(normRefs(xa), normRefs(ya)) {
					out = append(out, path)
				}
				return
			}
			if len(xa) != len(ya) {
				out = append(out, path)
				return
			}
			for i := range xa {
				walk(fmt.Sprintf("%s/%d", path, i), xa[i], ya[i])
			}
			return
		}
		xs, ys := fmt.Sprint(x), fmt.Sprint(y)
		if strings.HasSuffix(path, "/$ref") {
			xs, ys = strings.Replace(xs, "#/definitions/", "#/$defs/", 1), strings.Replace(ys, "#/definitions/", "#/$defs/", 1)
		}
		if xs != ys {
			out = append(out, path)
		}
	}
	names := map[string]bool{}
	for k := range a {
		names[k] = true
	}
	for k := range b {
		names[k] = true
	}
	for n := range names {
		walk(n, a[n], b[n])
	}
	sort.Strings(out)
	return out
}

// allowsAll are the keywords whose absence says what {} says (any value);
// "properties" is one too here: {} of it declares no member.
var allowsAll = map[string]bool{"properties": true, "additionalProperties": true, "items": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true}

// onlyRefs reports whether every element is {"$ref": ...} alone (a union
// of definitions, whose order says nothing).
func onlyRefs(l []any) bool {
	for _, v := range l {
		m, ok := v.(map[string]any)
		if _, ref := m["$ref"]; !ok || !ref || len(m) != 1 {
			return false
		}
	}
	return true
}

// normRefs writes each {"$ref": "#/definitions/X"} as "#/$defs/X".
func normRefs(l []any) []any {
	out := make([]any, len(l))
	for i, v := range l {
		if m, ok := v.(map[string]any); ok {
			if r, ok := m["$ref"].(string); ok {
				v = strings.Replace(r, "#/definitions/", "#/$defs/", 1)
			}
		}
		out[i] = v
	}
	return out
}

// empty reports whether a JSON value is absent, true or an empty object:
// what an absent allowsAll keyword says.
func empty(v any) bool {
	m, ok := v.(map[string]any)
	return v == nil || v == true || ok && len(m) == 0
}

func scalars(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

func sameSet(a, b []any) bool {
	key := func(l []any) []string {
		var s []string
		for _, v := range l {
			j, _ := json.Marshal(v)
			s = append(s, string(j))
		}
		sort.Strings(s)
		return slices.Compact(s)
	}
	return slices.Equal(key(a), key(b))
}
