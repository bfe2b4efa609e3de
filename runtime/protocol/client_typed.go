package protocol

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"iter"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/codec"
)

// This file is what the typed calls of a generated package have in common,
// whatever the revision's types: the iterators over paginated lists, the
// tool arguments as a Go value, the structured output of a tool decoded
// into a Go value after checking it against the tool's outputSchema, and
// the requests a server sends its client with typed params and results.
// The generated code (calls.go) is the glue between them and the types.

// DefaultMaxPages bounds the pages Pages reads of one list when the
// options leave MaxPages zero.
const DefaultMaxPages = 1000

// Pages returns an iterator over the items of a paginated list
// (server/utilities/pagination.mdx): page gets the cursor of the page to
// read (nil for the first) and returns its items and the nextCursor the
// server gave (nil at the end). Each item is yielded with a nil error;
// an error (page's, or the end of the bound) is yielded once, with a nil
// item, and ends the iteration. Breaking out of the loop stops it.
//
// A server whose list never ends is stopped: a nextCursor that it already
// gave in this iteration fails at once (the list would come round again),
// and so does reading more than maxPages pages (<= 0: DefaultMaxPages).
func Pages[T any](ctx context.Context, method string, maxPages int, page func(ctx context.Context, cursor *string) ([]T, *string, error)) iter.Seq2[*T, error] {
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	return func(yield func(*T, error) bool) {
		var cursor *string
		// The cursors given so far, by digest: a server's cursors may be
		// long, and there may be maxPages of them.
		seen := map[[sha256.Size]byte]bool{}
		for n := 0; ; n++ {
			if n == maxPages {
				yield(nil, fmt.Errorf("mcp: %s: the list has more than %d pages (ClientOptions.MaxPages)", method, maxPages))
				return
			}
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			items, next, err := page(ctx, cursor)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range items {
				if !yield(&items[i], nil) {
					return
				}
			}
			if next == nil {
				return
			}
			sum := sha256.Sum256([]byte(*next))
			if seen[sum] {
				yield(nil, fmt.Errorf("mcp: %s: the server gave the nextCursor %s twice: the list would not end", method, quoteShort(*next)))
				return
			}
			seen[sum] = true
			c := *next
			cursor = &c
		}
	}
}

// quoteShort quotes s for a message, cut to its first 64 bytes.
func quoteShort(s string) string {
	if len(s) > 64 {
		return codec.Quote(s[:64]) + "..."
	}
	return codec.Quote(s)
}

// ToolArguments encodes args, a Go value, as the arguments of a
// tools/call request: nil (or a nil pointer, map or slice: JSON null) is
// no arguments; a json.RawMessage is used as it is; any other value is
// encoded with encoding/json and must give a JSON object.
func ToolArguments(args any) (json.RawMessage, error) {
	var b []byte
	switch a := args.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		b = a
	default:
		var err error
		if b, err = json.Marshal(args); err != nil {
			return nil, err
		}
	}
	var d codec.Decoder
	d.InitShared(b)
	d.Skip()
	if err := d.Finish(); err != nil {
		return nil, err
	}
	b = bytes.TrimSpace(b)
	switch b[0] {
	case 'n':
		return nil, nil
	case '{':
		return b, nil
	default:
		return nil, fmt.Errorf("the arguments are a JSON %s, not an object (%T)", codec.KindOf(b[0]), args)
	}
}

// ToolError is the error of a tools/call answered with a result that says
// isError: true (a failure of the tool, which tools.mdx reports in the
// result rather than as a JSON-RPC error). Text is the text of the
// result's text content, joined with newlines.
type ToolError struct {
	Tool string
	Text string
}

func (e *ToolError) Error() string {
	if e.Text == "" {
		return "mcp: tool " + codec.Quote(e.Tool) + " failed"
	}
	return "mcp: tool " + codec.Quote(e.Tool) + " failed: " + e.Text
}

// DecodeStructured decodes structured, the structuredContent of a
// tools/call result of tool, into a value of type Out with encoding/json,
// after checking it against schema (the tool's outputSchema; nil: no
// check). It fails when there is no structuredContent, with a
// *codec.ValidationError (wrapped, naming the tool) when it does not match
// the schema, and with encoding/json's error when it does not fit Out.
func DecodeStructured[Out any](tool string, structured json.RawMessage, schema *codec.Schema) (Out, error) {
	var out Out
	if len(structured) == 0 {
		return out, fmt.Errorf("mcp: tool %s: the result has no structuredContent", codec.Quote(tool))
	}
	if schema != nil {
		if err := schema.Validate("", structured); err != nil {
			return out, fmt.Errorf("mcp: tool %s: the structuredContent does not match the tool's outputSchema: %w", codec.Quote(tool), err)
		}
	}
	if err := json.Unmarshal(structured, &out); err != nil {
		return out, fmt.Errorf("mcp: tool %s: structuredContent: %w", codec.Quote(tool), err)
	}
	return out, nil
}

// maxBookTools bounds the tools a schemaBook keeps: past it, it starts
// again from the latest list (a server that lists new tools without end
// cannot make it grow without end).
const maxBookTools = 4096

// schemaBook is what a client knows of the outputSchema of the server's
// tools, from the tools/list results it received: by tool name, the
// schema as JSON (nil for a tool without one), compiled on first use. A
// tools list_changed notification empties it. Its methods are safe for
// concurrent use.
type schemaBook struct {
	mu    sync.Mutex
	tools map[string]*toolSchema
}

// toolSchema is the outputSchema of one tool.
type toolSchema struct {
	raw      []byte
	compiled *codec.Schema
	err      error
	done     bool
}

// learn records the outputSchema of the tools of a tools/list result.
func (b *schemaBook) learn(raw []byte) {
	tools := codec.Lookup(raw, "tools")
	if tools == nil || tools[0] != '[' {
		return
	}
	var d codec.Decoder
	d.InitShared(tools)
	d.Array()
	learned := map[string]*toolSchema{}
	for first := true; d.NextElem(&first); {
		d.Peek()
		tool := d.Raw()
		name, ok := HeaderText(codec.Lookup(tool, "name"))
		if !ok {
			continue
		}
		s := &toolSchema{}
		if os := codec.Lookup(tool, "outputSchema"); os != nil && string(os) != "null" {
			s.raw = append([]byte(nil), os...)
		}
		learned[name] = s
	}
	if d.Finish() != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tools == nil || len(b.tools)+len(learned) > maxBookTools {
		b.tools = map[string]*toolSchema{}
	}
	for name, s := range learned {
		if old, ok := b.tools[name]; ok && string(old.raw) == string(s.raw) {
			continue // keep what was compiled
		}
		b.tools[name] = s
	}
}

// forget empties the book.
func (b *schemaBook) forget() {
	b.mu.Lock()
	b.tools = nil
	b.mu.Unlock()
}

// lookup returns the compiled outputSchema of the tool name (nil when it
// has none) and whether the book knows the tool.
func (b *schemaBook) lookup(name string) (*codec.Schema, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.tools[name]
	if !ok {
		return nil, false, nil
	}
	if s.raw == nil {
		return nil, true, nil
	}
	if !s.done {
		s.compiled, s.err = codec.CompileSchema(s.raw)
		s.done = true
	}
	if s.err != nil {
		return nil, true, fmt.Errorf("mcp: tool %s: its outputSchema cannot be checked: %w", codec.Quote(name), s.err)
	}
	return s.compiled, true, nil
}

// unlisted records that the server's whole list does not name the tool:
// it has no outputSchema the client can know, until the book is emptied.
func (b *schemaBook) unlisted(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tools == nil || len(b.tools) >= maxBookTools {
		b.tools = map[string]*toolSchema{}
	}
	if _, ok := b.tools[name]; !ok {
		b.tools[name] = &toolSchema{}
	}
}

// ToolOutputSchema returns the outputSchema of the tool name, compiled, or
// nil when it has none: as the tools/list results the client received
// give it and, when none named the tool, as the server's whole list does,
// which listAll reads (through the client's iterator, which teaches the
// core every page). A tool the list does not name has none, and the list
// is not read again for it until a tools list_changed notification. It
// fails when listAll does, and when the schema uses what codec.Schema
// does not read.
func (c *ClientCore) ToolOutputSchema(ctx context.Context, name string, listAll func(context.Context) error) (*codec.Schema, error) {
	s, known, err := c.schemas.lookup(name)
	if known || err != nil {
		return s, err
	}
	if err := listAll(ctx); err != nil {
		return nil, err
	}
	if s, known, err = c.schemas.lookup(name); known || err != nil {
		return s, err
	}
	c.schemas.unlisted(name)
	return nil, nil
}

// Ask sends a request to the client of the request ctx belongs to, as
// SendRequest does, and returns its result decoded into a new R (*R must
// have UnmarshalJSON; a Validate method validates it). It is what the
// typed server-to-client calls of a revision with the initialize handshake
// (Elicit, CreateMessage, ListRoots) are made of.
func Ask[R any, PR interface {
	*R
	UnmarshalJSON([]byte) error
}](ctx context.Context, method string, params interface {
	AppendJSON([]byte) ([]byte, error)
}) (*R, error) {
	r := PR(new(R))
	if err := SendRequest(ctx, method, params, r); err != nil {
		return nil, err
	}
	return r, nil
}
