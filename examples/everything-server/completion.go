package main

import (
	"context"
	"strings"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Completion of prompt arguments and resource template variables: the
// known values that start with what the user typed.

var completions = map[string][]string{
	"prompt test_prompt_with_arguments arg1":                {"test", "testValue1", "temperature", "tomorrow"},
	"prompt test_prompt_with_arguments arg2":                {"testValue2", "second", "sample"},
	"prompt test_prompt_with_embedded_resource resourceUri": {"test://static-text", "test://static-binary", watchedURI},
	"template " + templateURI + " id":                       {"1", "123", "42"},
}

func (s *server) Complete(_ context.Context, p *mcp.CompleteRequestParams) (*mcp.CompleteResult, error) {
	var key string
	switch r := p.Ref.(type) {
	case *mcp.PromptReference:
		key = "prompt " + r.Name + " " + p.Argument.Name
	case *mcp.ResourceTemplateReference:
		key = "template " + r.URI + " " + p.Argument.Name
	}
	values := []string{}
	for _, v := range completions[key] {
		if strings.HasPrefix(v, p.Argument.Value) {
			values = append(values, v)
		}
	}
	total := int64(len(values))
	return &mcp.CompleteResult{Completion: mcp.CompleteResultCompletion{Values: values, Total: &total, HasMore: new(false)}}, nil
}
