package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// This file holds what the tools and prompts that ask the client for input
// share (the forms, reading the answers), the media they return, and a JSON
// helper.

// The forms the tools and prompts ask the user to fill in: mcp.Form makes
// an elicitation of a struct's fields, and mcp.FormValue reads the answer
// back into the struct.
type nameForm struct {
	Name string `json:"name"`
}
type okForm struct {
	OK bool `json:"ok"`
}
type colorForm struct {
	Color string `json:"color"`
}
type goOnForm struct {
	Continue bool `json:"continue"`
}
type contextForm struct {
	Context string `json:"context"`
}
type confirmForm struct {
	Confirm bool `json:"confirm"`
}
type deleteForm struct {
	Confirm bool `json:"confirm" jsonschema:"Delete the file"`
}
type userInfo struct {
	Username string `json:"username" jsonschema:"User's response"`
	Email    string `json:"email" jsonschema:"User's email address"`
}

// elicit is an input request for a form elicitation, for AwaitInput.
func elicit(f *mcp.ElicitRequestFormParams) *mcp.ElicitRequest {
	return &mcp.ElicitRequest{Params: f}
}

// elicited is the answer to the elicitation of key among responses; nil
// when there is none (or one of another kind).
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
