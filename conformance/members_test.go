package conformance

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Objects with very many members the schema does not name: the duplicate
// check of every generated type must stay linear in the member count
// (issue 14). The speed is shown by BenchmarkManyMembers; these tests show
// that the check is right on both sides of the point where it switches from
// a scan to a set, and at counts where a quadratic check would not finish.

// membersObject returns an object with the given leading members followed
// by n members "k0".."k<n-1>" and then the trailing members.
func membersObject(lead string, n int, trail string) []byte {
	var b strings.Builder
	b.Grow(len(lead) + len(trail) + n*12)
	b.WriteString("{")
	b.WriteString(lead)
	for i := range n {
		if i > 0 || lead != "" {
			b.WriteByte(',')
		}
		b.WriteString(`"k`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":0`)
	}
	if trail != "" {
		b.WriteByte(',')
		b.WriteString(trail)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// The required members of the objects the tests below fill with others.
const (
	metaLead   = `"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	paramsLead = `"name":"t","_meta":{` + metaLead + `}`
)

func TestExtraMembersDuplicates(t *testing.T) {
	// Every count around the switch from a scan to a set, a duplicate of
	// each position: the first, one in the middle, the last.
	for n := 1; n <= 80; n++ {
		for _, j := range []int{0, n / 2, n - 1} {
			var p mcp.CallToolRequestParams
			msg := membersObject(paramsLead, n, `"k`+strconv.Itoa(j)+`":1`)
			err := p.UnmarshalJSON(msg)
			want := `duplicate member "k` + strconv.Itoa(j) + `"`
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("%d members, k%d repeated last: err = %v, want %s", n, j, err, want)
			}
		}
		// Without a duplicate every member is kept, in order.
		var p mcp.CallToolRequestParams
		if err := p.UnmarshalJSON(membersObject(paramsLead, n, `"z":true`)); err != nil {
			t.Fatalf("%d members: %v", n, err)
		}
		if len(p.Extra) != n+1 || p.Extra[n].Name != "z" || string(p.Extra[n].Value) != "true" {
			t.Fatalf("%d members: Extra has %d, last %+v", n, len(p.Extra), p.Extra[len(p.Extra)-1])
		}
		for i := range n {
			if p.Extra[i].Name != "k"+strconv.Itoa(i) {
				t.Fatalf("%d members: Extra[%d] = %q", n, i, p.Extra[i].Name)
			}
		}
	}
}

// TestExtraMembersManyDuplicates: at 200,000 members (a quadratic check
// takes minutes here) a duplicate is still found wherever it is, in the
// params and in their _meta, and a type decoded client-side (a result)
// checks the same way.
func TestExtraMembersManyDuplicates(t *testing.T) {
	const n = 200_000
	type decoder interface{ UnmarshalJSON([]byte) error }
	cases := []struct {
		name        string
		v           func() decoder
		lead, trail string
		dup         string // the duplicate, "" for none
	}{
		{"params", func() decoder { return new(mcp.CallToolRequestParams) }, paramsLead, `"k0":1`, "k0"},
		{"params last", func() decoder { return new(mcp.CallToolRequestParams) }, paramsLead, `"k199999":1`, "k199999"},
		{"params none", func() decoder { return new(mcp.CallToolRequestParams) }, paramsLead, `"k200000":1`, ""},
		{"result", func() decoder { return new(mcp.CallToolResult) }, `"content":[],"resultType":"complete"`, `"k123456":1`, "k123456"},
		{"result none", func() decoder { return new(mcp.CallToolResult) }, `"content":[],"resultType":"complete"`, `"x":1`, ""},
		{"_meta", func() decoder { return new(mcp.RequestMetaObject) }, metaLead, `"k77":{}`, "k77"},
		{"_meta none", func() decoder { return new(mcp.RequestMetaObject) }, metaLead, `"k":{}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.v().UnmarshalJSON(membersObject(c.lead, n, c.trail))
			switch {
			case c.dup == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case c.dup != "" && (err == nil || !strings.Contains(err.Error(), `duplicate member "`+c.dup+`"`)):
				t.Errorf("err = %v, want duplicate member %q", err, c.dup)
			}
		})
	}
	// The _meta of a request's params, seen through a whole request: the
	// request is answered.
	s := toolsServer()
	d := newServer(s, mcp.ServerOptions{})
	metaMembers := strings.TrimSuffix(strings.TrimPrefix(meta, `"_meta":{`), "}")
	params := `{"name":"many","_meta":` + string(membersObject(metaMembers, n, "")) + `}`
	resp := d.Handle(context.Background(), []byte(request(`1`, "tools/call", params)))
	checkResult(t, resp, "1", `{`+resultMeta+`,"content":[{"type":"text","text":"many"}],"resultType":"complete"}`)
}

// BenchmarkManyMembers decodes an object with 10k, 100k and 1M members
// the schema does not name (CallToolRequestParams.UnmarshalJSON), next to
// json.Valid on the same bytes as the baseline of the same run, and answers
// a tools/call request whose params carry them (ServerDispatcher.Handle).
// ns/member stays flat when the duplicate check is linear.
func BenchmarkManyMembers(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		label := strconv.Itoa(n/1000) + "k"
		if n >= 1_000_000 {
			label = strconv.Itoa(n/1_000_000) + "M"
		}
		obj := membersObject(paramsLead, n, "")
		b.Run("json.Valid/"+label, func(b *testing.B) {
			b.SetBytes(int64(len(obj)))
			for b.Loop() {
				if !json.Valid(obj) {
					b.Fatal("invalid")
				}
			}
			perMember(b, n)
		})
		b.Run("UnmarshalJSON/"+label, func(b *testing.B) {
			b.SetBytes(int64(len(obj)))
			for b.Loop() {
				var p mcp.CallToolRequestParams
				if err := p.UnmarshalJSON(obj); err != nil {
					b.Fatal(err)
				}
			}
			perMember(b, n)
		})
		msg := []byte(request(`1`, "tools/call", `{`+meta+`,`+string(obj[1:])))
		d := newServer(toolsServer(), mcp.ServerOptions{})
		b.Run("Handle/"+label, func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				if resp := d.Handle(context.Background(), msg); !strings.Contains(string(resp), `"result"`) {
					b.Fatalf("response %.200s", resp)
				}
			}
			perMember(b, n)
		})
	}
}

func perMember(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed())/float64(time.Nanosecond)/float64(b.N)/float64(n), "ns/member")
}
