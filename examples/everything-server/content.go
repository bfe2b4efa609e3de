package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"maps"
	"slices"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// This file holds what the tools and prompts that ask the client for input
// share (forms, and reading the answers), the media they return, and a JSON
// helper.

// form is a form elicitation: the message and the form's fields, all
// required.
func form(message string, fields map[string]mcp.PrimitiveSchemaDefinition) *mcp.ElicitRequestFormParams {
	return &mcp.ElicitRequestFormParams{
		Message: message,
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: fields,
			Required:   slices.Sorted(maps.Keys(fields)),
		},
	}
}

// text and yesNo are fields of a form: a string, a boolean; description
// may be "".
func text(description string) mcp.PrimitiveSchemaDefinition {
	f := &mcp.StringSchema{}
	if description != "" {
		f.Description = &description
	}
	return f
}

func yesNo(description string) mcp.PrimitiveSchemaDefinition {
	f := &mcp.BooleanSchema{}
	if description != "" {
		f.Description = &description
	}
	return f
}

type fields = map[string]mcp.PrimitiveSchemaDefinition

// nameForm asks for the user's name.
func nameForm(message string) *mcp.ElicitRequestFormParams {
	return form(message, fields{"name": text("")})
}

// elicit is an input request for a form elicitation, for AwaitInput.
func elicit(f *mcp.ElicitRequestFormParams) *mcp.ElicitRequest {
	return &mcp.ElicitRequest{Params: f}
}

// accepted returns the content of an accepted elicitation (nil otherwise).
func accepted(r *mcp.ElicitResult) map[string]mcp.ElicitResultContentValue {
	if r == nil || r.Action != mcp.ElicitResultActionAccept {
		return nil
	}
	return r.Content
}

// str and yes read a field of an accepted elicitation: "" and false when it
// is missing or of another kind.
func str(r *mcp.ElicitResult, field string) string {
	s, _ := accepted(r)[field].AsString()
	return s
}

func yes(r *mcp.ElicitResult, field string) bool {
	b, _ := accepted(r)[field].AsBoolean()
	return b
}

// elicited and roots are the answers of their kinds among responses, by
// key; nil when there is none (or one of another kind).
func elicited(responses mcp.InputResponses, key string) *mcp.ElicitResult {
	r, _ := responses[key].(*mcp.ElicitResult)
	return r
}

// sampled returns the text of a sampling answer, whose content is one
// block or an array of blocks.
func sampled(r *mcp.CreateMessageResult) string {
	if r == nil {
		return ""
	}
	switch c := r.Content.(type) {
	case *mcp.TextContent:
		return c.Text
	case mcp.CreateMessageResultContentArray:
		for _, b := range c {
			if t, ok := b.(*mcp.TextContent); ok {
				return t.Text
			}
		}
	}
	return ""
}

// ask is a sampling request for one user message.
func ask(prompt string, maxTokens int64) *mcp.CreateMessageRequestParams {
	return &mcp.CreateMessageRequestParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.Text(prompt)}},
		MaxTokens: maxTokens,
	}
}

// jsonText is the JSON of v.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// pngPixel is a 1x1 PNG image.
var pngPixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

// wavSilence is a tenth of a second of 8 kHz, 16-bit mono silence as a WAV
// file.
var wavSilence = func() []byte {
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
	return b.Bytes()
}()
