package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

func TestPages(t *testing.T) {
	ctx := context.Background()
	// Three pages of two.
	calls := 0
	pages := func(_ context.Context, cursor *string) ([]int, *string, error) {
		calls++
		from := 0
		if cursor != nil {
			from, _ = strconv.Atoi(*cursor)
		}
		if from >= 4 {
			return []int{from}, nil, nil
		}
		next := strconv.Itoa(from + 2)
		return []int{from, from + 1}, &next, nil
	}
	var got []int
	for v, err := range Pages(ctx, "x/list", 0, pages) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, *v)
	}
	if len(got) != 5 || got[4] != 4 || calls != 3 {
		t.Errorf("got %v in %d calls", got, calls)
	}
	// An error ends the iteration, once.
	boom := errors.New("boom")
	n := 0
	for v, err := range Pages(ctx, "x/list", 0, func(context.Context, *string) ([]int, *string, error) { return nil, nil, boom }) {
		n++
		if v != nil || err != boom {
			t.Errorf("%v, %v", v, err)
		}
	}
	if n != 1 {
		t.Errorf("%d yields", n)
	}
	// A cursor that comes again; a list without end.
	var last error
	for _, err := range Pages(ctx, "x/list", 0, func(context.Context, *string) ([]int, *string, error) { return nil, new("same"), nil }) {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), `"same" twice`) {
		t.Errorf("repeated cursor: %v", last)
	}
	calls = 0
	for _, err := range Pages(ctx, "x/list", 4, func(context.Context, *string) ([]int, *string, error) {
		calls++
		return nil, new(strconv.Itoa(calls)), nil
	}) {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "more than 4 pages") || calls != 4 {
		t.Errorf("endless list: %d calls, %v", calls, last)
	}
	// A cancelled context stops before the next page.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, err := range Pages(cctx, "x/list", 0, pages) {
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("cancelled: %v", last)
	}
}

func TestToolArguments(t *testing.T) {
	var nilMap map[string]int
	for _, c := range []struct {
		args any
		want string
		err  string
	}{
		{nil, "", ""},
		{nilMap, "", ""},
		{struct {
			A int `json:"a"`
		}{1}, `{"a":1}`, ""},
		{json.RawMessage(` {"b":2}`), `{"b":2}`, ""},
		{json.RawMessage(`{"b":`), "", "end"},
		{json.RawMessage(`{"b":1,"b":2}`), "", "duplicate"},
		{[]int{1}, "", "a JSON array, not an object"},
		{"s", "", "a JSON string, not an object"},
		{func() {}, "", "unsupported type"},
	} {
		got, err := ToolArguments(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%T: %v, want an error with %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%T: %s, %v; want %s", c.args, got, err, c.want)
		}
	}
}

func TestDecodeStructured(t *testing.T) {
	schema, err := codec.CompileSchema([]byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	type out struct{ N int }
	if v, err := DecodeStructured[out]("t", []byte(`{"n":3}`), schema); err != nil || v.N != 3 {
		t.Errorf("%+v, %v", v, err)
	}
	_, err = DecodeStructured[out]("t", []byte(`{"n":-1}`), schema)
	var ve *codec.ValidationError
	if !errors.As(err, &ve) || ve.Violations[0].Pointer != "/n" {
		t.Errorf("below the minimum: %v", err)
	}
	if _, err := DecodeStructured[out]("t", nil, schema); err == nil || !strings.Contains(err.Error(), "no structuredContent") {
		t.Errorf("none: %v", err)
	}
	if _, err := DecodeStructured[out]("t", []byte(`{"N":"x"}`), nil); err == nil {
		t.Error("a value that does not fit: no error")
	}
}

func TestSchemaBook(t *testing.T) {
	var b schemaBook
	b.learn([]byte(`{"tools":[{"name":"a","inputSchema":{},"outputSchema":{"type":"object"}},{"name":"b","inputSchema":{}},{"name":"c","inputSchema":{},"outputSchema":{"type":"object","unevaluatedProperties":false}}]}`))
	if s, known, err := b.lookup("a"); s == nil || !known || err != nil {
		t.Errorf("a: %v %v %v", s, known, err)
	}
	if s, known, err := b.lookup("b"); s != nil || !known || err != nil {
		t.Errorf("b: %v %v %v", s, known, err)
	}
	if _, known, err := b.lookup("c"); !known || err == nil || !strings.Contains(err.Error(), "cannot be checked") {
		t.Errorf("c: %v %v", known, err)
	}
	if _, known, _ := b.lookup("d"); known {
		t.Error("d is known")
	}
	// A malformed result teaches nothing; forget empties the book.
	b.learn([]byte(`{"tools":[{"name":"d"},`))
	if _, known, _ := b.lookup("d"); known {
		t.Error("d learned from a malformed list")
	}
	b.forget()
	if _, known, _ := b.lookup("a"); known {
		t.Error("a is still known")
	}
	// A tool the whole list does not name has no schema.
	b.unlisted("e")
	if s, known, err := b.lookup("e"); s != nil || !known || err != nil {
		t.Errorf("e: %v %v %v", s, known, err)
	}
	// The book is bounded: past maxBookTools it starts again.
	var list strings.Builder
	list.WriteString(`{"tools":[`)
	for i := range maxBookTools {
		if i > 0 {
			list.WriteByte(',')
		}
		list.WriteString(`{"name":"t` + strconv.Itoa(i) + `"}`)
	}
	list.WriteString(`]}`)
	b.learn([]byte(list.String()))
	if len(b.tools) != maxBookTools {
		t.Errorf("%d tools", len(b.tools))
	}
	b.learn([]byte(`{"tools":[{"name":"new"}]}`))
	if _, known, _ := b.lookup("new"); !known || len(b.tools) != 1 {
		t.Errorf("past the bound: %d tools", len(b.tools))
	}
}

func TestPagesLongCursors(t *testing.T) {
	// Long cursors are kept as digests, and quoted short.
	long := strings.Repeat("c", 1<<20)
	var last error
	for _, err := range Pages(context.Background(), "x/list", 0, func(context.Context, *string) ([]int, *string, error) { return nil, &long, nil }) {
		last = err
	}
	if last == nil || len(last.Error()) > 200 || !strings.Contains(last.Error(), "twice") {
		t.Errorf("%.200v", last)
	}
}
