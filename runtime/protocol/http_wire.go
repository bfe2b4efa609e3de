package protocol

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/codec"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// This file holds the wire formats of Streamable HTTP that both ends use:
// the request metadata headers of 2026-07-28 (their value encoding and the
// x-mcp-header bindings of tool arguments) and Server-Sent Events. The
// server (server_http.go) checks headers and writes events; a client sets
// headers and reads events with the same functions.

// The Base64 sentinel of header values that are not plain visible ASCII
// (streamable-http.mdx, "Value Encoding").
const (
	headerB64Prefix = "=?base64?"
	headerB64Suffix = "?="
)

// headerValueSafe reports whether s can be sent as a header value as it is:
// visible ASCII, space and tab only, no leading or trailing whitespace, and
// not in the form of the Base64 sentinel.
func headerValueSafe(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return false
		}
	}
	return !isHeaderB64(s)
}

func isHeaderB64(s string) bool {
	return len(s) >= len(headerB64Prefix)+len(headerB64Suffix) &&
		strings.HasPrefix(s, headerB64Prefix) && strings.HasSuffix(s, headerB64Suffix)
}

// encodeHeaderValue is the header value that carries s: s itself when it is
// safe, otherwise the Base64 sentinel of its UTF-8 bytes.
func encodeHeaderValue(s string) string {
	if headerValueSafe(s) {
		return s
	}
	return headerB64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + headerB64Suffix
}

// decodeHeaderValue reverses encodeHeaderValue on a received value (already
// stripped of surrounding whitespace, as HTTP field parsing does): a value
// in the sentinel form must hold canonical, padded Base64 of UTF-8 text; any
// other value must be visible ASCII, space and tab.
func decodeHeaderValue(v string) (string, error) {
	if isHeaderB64(v) {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len(headerB64Prefix) : len(v)-len(headerB64Suffix)])
		if err != nil {
			return "", errors.New("its Base64 is invalid")
		}
		if !utf8.Valid(b) {
			return "", errors.New("its Base64 does not decode to UTF-8 text")
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return "", errors.New("it holds a character outside visible ASCII (use the =?base64?...?= form)")
		}
	}
	return v, nil
}

// headerOne returns the single value of header key, trimmed of the
// whitespace HTTP allows around it. present is false when the header is
// absent; ok is false when it appears more than once.
func headerOne(h http.Header, key string) (v string, present, ok bool) {
	vs := h[key]
	switch len(vs) {
	case 0:
		return "", false, true
	case 1:
		return strings.Trim(vs[0], " \t"), true, true
	}
	return "", true, false
}

// paramHeader is one x-mcp-header annotation of a tool's inputSchema: the
// argument at path (a chain of properties) is mirrored into header key.
type paramHeader struct {
	path []string
	key  string // canonical header name: Mcp-Param-{name}
	typ  string // the annotated property's type: string, integer or boolean
}

// headerSchema is what paramHeaders reads of a schema.
type headerSchema struct {
	Type       json.RawMessage          `json:"type"`
	Header     json.RawMessage          `json:"x-mcp-header"`
	Properties map[string]*headerSchema `json:"properties"`
}

// paramHeaders reads the x-mcp-header annotations of a tool's inputSchema
// (streamable-http.mdx, "Custom Headers from Tool Parameters"). Only
// properties reached through a chain of properties keywords count. An
// annotation that breaks the rules (not a non-empty header token, a type
// other than string, integer or boolean, a name another annotation already
// has, compared case-insensitively) makes the tool invalid; it comes back as
// an error naming the property.
func paramHeaders(inputSchema []byte) ([]paramHeader, error) {
	var root headerSchema
	if err := json.Unmarshal(inputSchema, &root); err != nil {
		return nil, errors.New("inputSchema: " + err.Error())
	}
	var out []paramHeader
	seen := map[string]bool{}
	var walk func(s *headerSchema, path []string) error
	walk = func(s *headerSchema, path []string) error {
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p := s.Properties[n]
			if p == nil {
				continue
			}
			at := append(append([]string(nil), path...), n)
			if p.Header != nil {
				var name string
				if err := json.Unmarshal(p.Header, &name); err != nil || !isToken(name) {
					return errors.New("property " + strings.Join(at, ".") + ": x-mcp-header must be a non-empty header name token, not " + string(p.Header))
				}
				var typ string
				_ = json.Unmarshal(p.Type, &typ)
				if typ != "string" && typ != "integer" && typ != "boolean" {
					return errors.New("property " + strings.Join(at, ".") + ": x-mcp-header needs type string, integer or boolean, not " + codec.Quote(string(p.Type)))
				}
				lower := strings.ToLower(name)
				if seen[lower] {
					return errors.New("property " + strings.Join(at, ".") + ": x-mcp-header " + codec.Quote(name) + " is used twice")
				}
				seen[lower] = true
				out = append(out, paramHeader{path: at, key: http.CanonicalHeaderKey(spec.HeaderParamPrefix + name), typ: typ})
			}
			if err := walk(p, at); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(&root, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// isToken reports whether s is an HTTP field-name token (RFC 9110 5.1).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// argumentAt returns the raw value at path in a tool call's arguments
// object, or nil when there is none.
func argumentAt(args []byte, path []string) []byte {
	v := args
	for _, p := range path {
		v = codec.Lookup(v, p)
		if v == nil {
			return nil
		}
	}
	return v
}

// headerText is the text a primitive argument value is mirrored as: a
// string as it is, an integer in decimal, a boolean as true or false. ok is
// false for null and for values that are not primitives.
func HeaderText(raw []byte) (s string, ok bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch c := raw[0]; {
	case c == '"':
		var d codec.Decoder
		d.InitShared(raw)
		s := d.Str()
		return s, !d.Failed()
	case c == 't' || c == 'f':
		return string(raw), string(raw) == "true" || string(raw) == "false"
	case codec.IsNumberStart(c):
		if n, isInt, inRange := codec.ParseInt(raw); isInt && inRange {
			return strconv.FormatInt(n, 10), true
		}
		return string(raw), true
	}
	return "", false
}

// headerMatches reports whether a decoded header value carries the
// argument value raw: strings compare exactly, numbers by value (42 and
// 42.0 are equal), booleans as true and false.
func headerMatches(h string, raw []byte) bool {
	switch c := raw[0]; {
	case c == '"':
		s, ok := HeaderText(raw)
		return ok && s == h
	case c == 't' || c == 'f':
		return h == string(raw)
	case codec.IsNumberStart(c):
		return isJSONNumber(h) && codec.CmpNumber(raw, h) == 0
	}
	return false
}

// isJSONNumber reports whether s is a number in JSON's syntax.
func isJSONNumber(s string) bool {
	if s == "" || !codec.IsNumberStart(s[0]) {
		return false
	}
	var d codec.Decoder
	d.InitShared([]byte(s))
	d.Number()
	return d.Finish() == nil
}

// SSE

// appendSSEEvent appends one Server-Sent Event of type message carrying
// data. A line break inside data (JSON whitespace that raw values may hold)
// starts another data line, which the reader joins back with "\n".
func appendSSEEvent(b, data []byte) []byte {
	b = append(b, "event: message\ndata: "...)
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			b = append(b, data...)
			break
		}
		b = append(b, data[:i]...)
		b = append(b, "\ndata: "...)
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(b, "\n\n"...)
}

// sseEvent is one event read from a stream.
type sseEvent struct {
	id    string
	event string // "message" when the stream does not name it
	data  []byte
	retry int // milliseconds; 0 when absent
}

// sseReader reads Server-Sent Events (the WHATWG HTML "event stream"
// format): comment lines are skipped, data lines are joined with "\n", and
// an event ends at an empty line. An event larger than max bytes is an
// error.
type sseReader struct {
	r   *bufio.Reader
	max int
	// lastID is the stream's last event ID (the id of the latest event
	// dispatched, whether or not it had data), and retry the latest retry
	// field in milliseconds (0: none): what a client resumes the stream
	// with.
	lastID string
	retry  int
}

func (s *sseReader) tooLong() error {
	return fmt.Errorf("%w (the limit is %d bytes)", errSSETooLong, s.max)
}

func newSSEReader(r io.Reader, max int) *sseReader {
	return &sseReader{r: bufio.NewReader(r), max: max}
}

// errSSETooLong is an event above the reader's limit; the error of
// next wraps it, saying the limit.
var errSSETooLong = errors.New("server-sent event too long")

// next returns the next event with data; io.EOF at the end of the stream.
// A stream that ends in the middle of an event is io.ErrUnexpectedEOF.
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	var data []byte
	hasData, started, idSet := false, false, false
	size := 0
	for {
		line, err := s.r.ReadSlice('\n')
		// A line longer than the reader's buffer is gathered in pieces
		// and joined once: it costs at most twice its length.
		var long []byte
		if errors.Is(err, bufio.ErrBufferFull) {
			var pieces gather
			for errors.Is(err, bufio.ErrBufferFull) {
				size += len(line)
				if size > s.max {
					return ev, s.tooLong()
				}
				pieces.add(line)
				line, err = s.r.ReadSlice('\n')
			}
			pieces.add(line)
			long = pieces.join()
			line = long
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			if err == io.EOF && started {
				return ev, io.ErrUnexpectedEOF
			}
			return ev, err
		}
		size += len(line)
		if size > s.max {
			return ev, s.tooLong()
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			if idSet {
				s.lastID = ev.id
			}
			if hasData {
				ev.data = data
				if ev.event == "" {
					ev.event = "message"
				}
				return ev, nil
			}
			ev, data, started, size, idSet = sseEvent{}, nil, false, 0, false
			continue
		}
		started = true
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			switch {
			case hasData:
				data = append(data, '\n')
				data = append(data, value...)
			case long != nil:
				data = value // the line is the reader's own: no copy
			default:
				data = append([]byte(nil), value...)
			}
			hasData = true
		case "event":
			ev.event = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.id, idSet = string(value), true
			}
		case "retry":
			if n, err := strconv.Atoi(string(value)); err == nil && n >= 0 {
				ev.retry, s.retry = n, n
			}
		}
		if err == io.EOF {
			return ev, io.ErrUnexpectedEOF
		}
	}
}

// gather collects the pieces of a long line without copying what it has
// already gathered: each piece goes into a buffer of its own once the
// last is full (buffers doubling up to 4 MiB), and join copies them all
// once.
type gather struct {
	bufs  [][]byte
	total int
}

func (g *gather) add(p []byte) {
	g.total += len(p)
	for len(p) > 0 {
		if n := len(g.bufs); n == 0 || len(g.bufs[n-1]) == cap(g.bufs[n-1]) {
			size := 16 << 10
			if n > 0 {
				size = min(2*cap(g.bufs[n-1]), 4<<20)
			}
			g.bufs = append(g.bufs, make([]byte, 0, size))
		}
		last := &g.bufs[len(g.bufs)-1]
		k := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
}

func (g *gather) join() []byte {
	out := make([]byte, 0, g.total)
	for _, b := range g.bufs {
		out = append(out, b...)
	}
	return out
}
