package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// This file holds the few functions that build union values (content
// blocks, resource contents) and read them, and the JSON helpers the rest
// of the server uses, so that the rest reads as plain data.

func text(s string) mcp.ContentBlock {
	return &mcp.TextContent{Text: s}
}

func image(data, mimeType string) mcp.ContentBlock {
	return &mcp.ImageContent{Data: data, MIMEType: mimeType}
}

func audio(data, mimeType string) mcp.ContentBlock {
	return &mcp.AudioContent{Data: data, MIMEType: mimeType}
}

// embeddedText is a resource embedded in a tool result or prompt message.
func embeddedText(uri, mimeType, body string) mcp.ContentBlock {
	return &mcp.EmbeddedResource{Resource: &mcp.TextResourceContents{URI: uri, MIMEType: &mimeType, Text: body}}
}

// toolResult is a successful tool result with the given content.
func toolResult(content ...mcp.ContentBlock) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: content}
}

// toolError is a tool result that reports an error to the model (isError),
// as opposed to a protocol error.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: new(true), Content: []mcp.ContentBlock{text(msg)}}
}

// completionRefPrompt returns the prompt name of a completion reference,
// or "" for another kind of reference.
func completionRefPrompt(p *mcp.CompleteRequestParams) string {
	if r, ok := p.Ref.(*mcp.PromptReference); ok {
		return r.Name
	}
	return ""
}

// completionRefTemplate returns the URI template of a completion
// reference to a resource template, or "".
func completionRefTemplate(p *mcp.CompleteRequestParams) string {
	if r, ok := p.Ref.(*mcp.ResourceTemplateReference); ok {
		return r.URI
	}
	return ""
}

// decode fills a value of a generated type from JSON written in the
// source; a mistake there is a programming error.
func decode[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
	Validate() error
}](js string) T {
	v := P(new(T))
	if err := v.UnmarshalJSON([]byte(js)); err != nil {
		panic(fmt.Sprintf("everything-server: %v in %s", err, js))
	}
	if err := v.Validate(); err != nil {
		panic(fmt.Sprintf("everything-server: %v in %s", err, js))
	}
	return *v
}

// jsonText is the JSON of v, for building JSON in code.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// answer is what the server reads of the client's answer to an input
// request: an elicitation's action and content, a sampling result's text,
// a roots list.
type answer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
	// sampling/createMessage
	Model          string          `json:"model"`
	SampledContent json.RawMessage `json:"-"`
	// roots/list
	Roots []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"roots"`
}

// answerTo reads the answer with the given key, if the client sent one.
func answerTo(responses mcp.InputResponses, key string) (*answer, bool) {
	r, ok := responses[key]
	if !ok {
		return nil, false
	}
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, false
	}
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, false
	}
	var sampled struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(b, &sampled) == nil {
		a.SampledContent = sampled.Content
	}
	return &a, true
}

// accepted returns the content of an accepted elicitation.
func (a *answer) accepted() (map[string]any, bool) {
	if a == nil || a.Action != "accept" {
		return nil, false
	}
	return a.Content, true
}

// sampledText returns the text of a sampling answer (content is one block
// or an array of blocks).
func (a *answer) sampledText() string {
	if a == nil {
		return ""
	}
	var one struct{ Type, Text string }
	if json.Unmarshal(a.SampledContent, &one) == nil && one.Type == "text" {
		return one.Text
	}
	var many []struct{ Type, Text string }
	if json.Unmarshal(a.SampledContent, &many) == nil {
		for _, c := range many {
			if c.Type == "text" {
				return c.Text
			}
		}
	}
	return ""
}

// pngPixel is a 1x1 PNG image.
const pngPixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// wavSilence is a tenth of a second of 8 kHz, 16-bit mono silence as a
// base64 WAV file.
var wavSilence = func() string {
	const rate, samples = 8000, 800
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + samples*2))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1)) // PCM
	le(uint16(1)) // mono
	le(uint32(rate))
	le(uint32(rate * 2))
	le(uint16(2))
	le(uint16(16))
	b.WriteString("data")
	le(uint32(samples * 2))
	b.Write(make([]byte, samples*2))
	return base64.StdEncoding.EncodeToString(b.Bytes())
}()
