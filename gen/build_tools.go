package gen

import (
	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/spec"
)

// buildTools decides the tool set of a package (ir.ToolSupport) from the
// protocol's tools/list and tools/call, or returns nil when the revision
// lacks them or they do not have the shape the specification gives them
// (a schema that is not MCP generates without a tool set). A definition
// that takes one of the tool set's exported names is an error, like one
// that takes a dispatcher name.
func (b *builder) buildTools(p *ir.Protocol) *ir.ToolSupport {
	var list, call *ir.Method
	for _, m := range p.Methods {
		if m.Direction != ir.ClientToServer || m.Notification {
			continue
		}
		switch m.Name {
		case spec.MethodListTools:
			list = m
		case spec.MethodCallTool:
			call = m
		}
	}
	if list == nil || call == nil {
		return nil
	}
	t := &ir.ToolSupport{Set: "Tools", Add: "AddTool", TextResult: "TextResult", Adder: "ToolAdder"}

	// tools/call: params with a name and raw arguments; a result with
	// content (a union with a text branch) and isError.
	params := structOfType(call.Params)
	result := structOfType(call.Result)
	if params == nil || result == nil {
		return nil
	}
	name, args := toolField(params, "name"), toolField(params, "arguments")
	if !isKind(name, ir.TString, true) || !isKind(args, ir.TRaw, false) {
		return nil
	}
	t.CallParams, t.CallName, t.Arguments = params.Name, name.Name, args.Name
	content, isError := toolField(result, "content"), toolField(result, "isError")
	if !isKind(content, ir.TSlice, true) || !isKind(isError, ir.TBool, false) {
		return nil
	}
	union := content.Type.Resolve().Elem.Union()
	if union == nil {
		return nil
	}
	for _, br := range union.Branches {
		if st := structOfType(br.Type); st != nil && st.Definition == "TextContent" {
			if f := toolField(st, "text"); isKind(f, ir.TString, true) {
				t.Text, t.TextField = st.Name, f.Name
			}
		}
	}
	if t.Text == "" {
		return nil
	}
	t.Result, t.Content, t.ContentItem, t.IsError = result.Name, content.Name, union.Name, isError.Name

	// tools/list: a result with the tools; the Tool has a name and an
	// inputSchema object.
	lres := structOfType(list.Result)
	if lres == nil {
		return nil
	}
	tools := toolField(lres, "tools")
	if !isKind(tools, ir.TSlice, true) {
		return nil
	}
	tool := structOfType(tools.Type.Resolve().Elem)
	if tool == nil {
		return nil
	}
	tname, input := toolField(tool, "name"), toolField(tool, "inputSchema")
	if !isKind(tname, ir.TString, true) || input == nil || !input.Required || structOfType(input.Type) == nil {
		return nil
	}
	t.ListResult, t.ListTools, t.Tool, t.ToolName, t.InputSchema = lres.Name, tools.Name, tool.Name, tname.Name, input.Name
	lparams := structOfType(list.Params)
	if lparams == nil {
		return nil
	}
	t.ListParams = lparams.Name
	if c := toolField(lparams, "cursor"); c != nil && c.Pointer() {
		t.Cursor = c.Name
	}

	// Structured results (2025-06-18 and later): both outputSchema and
	// structuredContent, or neither.
	out, structured := toolField(tool, "outputSchema"), toolField(result, "structuredContent")
	if out != nil && out.Pointer() && structOfType(out.Type) != nil && isKind(structured, ir.TRaw, false) {
		t.OutputSchema, t.OutputSchemaType, t.Structured = out.Name, structOfType(out.Type).Name, structured.Name
		t.AddOutput = "AddStructuredTool"
	}

	// Cache hints on tools/list (2026-07-28).
	ttl, scope := toolField(lres, "ttlMs"), toolField(lres, "cacheScope")
	if isKind(ttl, ir.TInt, true) && scope != nil && scope.Required && p.CacheScope != nil && scope.Type.Same(&ir.Type{Kind: ir.TDecl, Decl: p.CacheScope}) {
		if c := p.DefaultCacheScope; c != "" {
			t.TTL, t.CacheScope, t.CacheScopeType, t.CacheScopePublic = ttl.Name, scope.Name, p.CacheScope.Name, c
		}
	}

	// The tools capability the dispatcher declares for a Tools.
	if p.ServerCapabilities != nil {
		if c := toolField(p.ServerCapabilities, "tools"); c != nil && c.Pointer() && structOfType(c.Type) != nil {
			t.Capability, t.CapabilityType = c.Name, structOfType(c.Type).Name
		}
	}

	for _, n := range t.Names() {
		if prev, ok := b.owners[n]; ok {
			b.errorf(prev, "Go name %s is reserved for the generated tool set (rename the definition)", n)
		}
	}
	return t
}

// structOfType is the struct a type names (through aliases), or nil.
func structOfType(t *ir.Type) *ir.Struct {
	if t == nil {
		return nil
	}
	t = t.Resolve()
	if t.Kind != ir.TDecl {
		return nil
	}
	st, _ := t.Decl.(*ir.Struct)
	return st
}

// toolField is st's field for the member name, or nil (also for a
// required const, which has no Go field).
func toolField(st *ir.Struct, name string) *ir.Field {
	for _, f := range st.Fields {
		if f.JSONName == name && f.Name != "" {
			return f
		}
	}
	return nil
}

// isKind reports whether f exists, has a type of kind k (through aliases
// and named types) and is required or not as asked.
func isKind(f *ir.Field, k ir.TKind, required bool) bool {
	if f == nil || f.Required != required {
		return false
	}
	t := f.Type.Resolve()
	if t.Kind == ir.TDecl {
		switch d := t.Decl.(type) {
		case *ir.Named:
			t = d.Type.Resolve()
		case *ir.Raw:
			return k == ir.TRaw // a named raw type (JSONObject): []byte underneath
		}
	}
	return t.Kind == k
}
