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
func (b *builder) buildTools(p *ir.Protocol, defs map[string]ir.Decl) *ir.ToolSupport {
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
	t := &ir.ToolSupport{Set: "Server", Add: "AddTool", TextResult: "TextResult", Adder: "Registry"}

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
	if c := toolField(lparams, spec.MemberCursor); c != nil && c.Pointer() {
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
	ttl, scope := toolField(lres, spec.MemberTTL), toolField(lres, spec.MemberCacheScope)
	if isKind(ttl, ir.TInt, true) && scope != nil && scope.Required && p.CacheScope != nil && scope.Type.Same(&ir.Type{Kind: ir.TDecl, Decl: p.CacheScope}) {
		if c := p.DefaultCacheScope; c != "" {
			t.TTL, t.CacheScope, t.CacheScopeType, t.CacheScopePublic = ttl.Name, scope.Name, p.CacheScope.Name, c
		}
	}

	// The tools capability the dispatcher declares for a Tools.
	if p.ServerCapabilities != nil {
		if c := toolField(p.ServerCapabilities, "tools"); c != nil && c.Pointer() && structOfType(c.Type) != nil {
			t.Capability, t.CapabilityType = c.Name, structOfType(c.Type).Name
			if lc := toolField(structOfType(c.Type), "listChanged"); isKind(lc, ir.TBool, false) && lc.Pointer() {
				if m := methodNamed(p, spec.MethodToolsListChanged, ir.ServerToClient); m != nil {
					t.ListChanged, t.ListChangedMethod = lc.Name, m.Const
				}
			}
		}
	}
	t.Helpers = buildContent(defs)
	t.Resources = buildResources(p, t, defs)
	t.Prompts = buildPrompts(p, t, defs)
	t.Listen = buildListen(p, t, defs)

	// The set's names give way to definitions (ownName): the ones kept
	// in fields are rewritten there, the others the emitter looks up
	// (ir.Package.Own).
	for _, n := range []*string{&t.Set, &t.Add, &t.AddOutput, &t.TextResult, &t.Adder} {
		if *n != "" {
			*n = b.ownName(*n, "the generated tool set")
		}
	}
	for _, n := range t.Names() {
		b.ownName(n, "the generated tool set")
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

// methodNamed is the method of that name and direction, or nil.
func methodNamed(p *ir.Protocol, name string, dir ir.Direction) *ir.Method {
	for _, m := range p.Methods {
		if m.Name == name && m.Direction == dir {
			return m
		}
	}
	return nil
}

// fieldsOf returns the Go names of st's members, in order, or nil when
// st is nil or lacks one.
func fieldsOf(st *ir.Struct, members ...string) []string {
	if st == nil {
		return nil
	}
	out := make([]string, len(members))
	for i, m := range members {
		f := toolField(st, m)
		if f == nil {
			return nil
		}
		out[i] = f.Name
	}
	return out
}

// buildContent names the content types the helpers build.
func buildContent(defs map[string]ir.Decl) *ir.ContentSupport {
	c := &ir.ContentSupport{}
	if f := fieldsOf(structOf(defs, "ImageContent"), "data", "mimeType"); f != nil && f[0] == "Data" && f[1] == "MIMEType" {
		c.Image = structOf(defs, "ImageContent").Name
	}
	if f := fieldsOf(structOf(defs, "AudioContent"), "data", "mimeType"); f != nil && f[0] == "Data" && f[1] == "MIMEType" {
		c.Audio = structOf(defs, "AudioContent").Name
	}
	if f := fieldsOf(structOf(defs, "ResourceLink"), "uri", "name"); f != nil && f[0] == "URI" && f[1] == "Name" {
		c.Link = structOf(defs, "ResourceLink").Name
	}
	if st := structOf(defs, "EmbeddedResource"); st != nil {
		if r := toolField(st, "resource"); r != nil && r.Name == "Resource" && r.Type.Resolve().Union() != nil {
			c.Embedded, c.EmbeddedOf = st.Name, r.Type.Resolve().Union().Name
		}
	}
	if pm := structOf(defs, "PromptMessage"); pm != nil {
		role, content := toolField(pm, "role"), toolField(pm, "content")
		if role != nil && content != nil && role.Name == "Role" && content.Name == "Content" && content.Type.Resolve().Union() != nil {
			if e, ok := role.Type.Resolve().Decl.(*ir.Enum); ok {
				for _, v := range e.Values {
					switch v.Value.Str {
					case "user":
						c.RoleUser = v.Name
					case "assistant":
						c.RoleAssistant = v.Name
					}
				}
				if c.RoleUser != "" && c.RoleAssistant != "" {
					c.Role, c.PromptMessage, c.PromptContent = e.Name, pm.Name, content.Type.Resolve().Union().Name
				}
			}
		}
	}
	return c
}

// buildResources decides the Server's resources from resources/list,
// resources/templates/list and resources/read, or returns nil when they
// lack the shape the specification gives them.
func buildResources(p *ir.Protocol, t *ir.ToolSupport, defs map[string]ir.Decl) *ir.ResourceSupport {
	list, tlist, read := methodNamed(p, spec.MethodListResources, ir.ClientToServer), methodNamed(p, spec.MethodListResourceTemplates, ir.ClientToServer), methodNamed(p, spec.MethodReadResource, ir.ClientToServer)
	if list == nil || tlist == nil || read == nil || t.Capability == "" {
		return nil
	}
	r := &ir.ResourceSupport{}
	res, tmpl := structOf(defs, "Resource"), structOf(defs, "ResourceTemplate")
	rf, tf := fieldsOf(res, "uri"), fieldsOf(tmpl, "uriTemplate")
	rp, rr := structOfType(read.Params), structOfType(read.Result)
	pf, cf := fieldsOf(rp, "uri"), fieldsOf(rr, "contents")
	lr, tr := structOfType(list.Result), structOfType(tlist.Result)
	lf, tlf := fieldsOf(lr, "resources"), fieldsOf(tr, "resourceTemplates")
	if rf == nil || tf == nil || pf == nil || cf == nil || lf == nil || tlf == nil {
		return nil
	}
	r.Resource, r.ResourceURI, r.Template, r.TemplateURI = res.Name, rf[0], tmpl.Name, tf[0]
	r.ReadParams, r.ReadURI, r.ReadResult, r.ReadContents = rp.Name, pf[0], rr.Name, cf[0]
	r.ListResult, r.ListField, r.TemplatesResult, r.TemplatesField = lr.Name, lf[0], tr.Name, tlf[0]
	lp, tp := listParams(list, t), listParams(tlist, t)
	if lp == "" || tp == "" {
		return nil
	}
	r.ListParams, r.TemplatesParams = lp, tp
	// The list results' cursor and cache fields are named as tools/list's.
	for _, st := range []*ir.Struct{lr, tr} {
		if t.Cursor != "" && fieldsOf(st, spec.MemberNextCursor) == nil {
			return nil
		}
		if t.TTL != "" && fieldsOf(st, spec.MemberTTL, spec.MemberCacheScope) == nil {
			return nil
		}
	}
	// The contents union: text and blob resource contents.
	u := toolField(rr, "contents").Type.Resolve().Elem.Union()
	txt, blob := structOf(defs, "TextResourceContents"), structOf(defs, "BlobResourceContents")
	xf, bf := fieldsOf(txt, "uri", "mimeType", "text"), fieldsOf(blob, "uri", "mimeType", "blob")
	if u == nil || xf == nil || bf == nil || xf[0] != bf[0] || xf[1] != bf[1] || !toolField(txt, "mimeType").Pointer() || !isKind(toolField(blob, "blob"), ir.TString, true) {
		return nil
	}
	r.ContentsItem, r.TextContents, r.BlobContents = u.Name, txt.Name, blob.Name
	r.ContentsURI, r.ContentsMIME, r.ContentsText, r.ContentsBlob = xf[0], xf[1], xf[2], bf[2]
	caps := structOfType(toolField(p.ServerCapabilities, "resources").Type)
	cf2 := fieldsOf(caps, "listChanged", "subscribe")
	if cf2 == nil {
		return nil
	}
	r.Capability, r.CapabilityType, r.ListChanged, r.Subscribe = toolField(p.ServerCapabilities, "resources").Name, caps.Name, cf2[0], cf2[1]
	up, lc := methodNamed(p, spec.MethodResourceUpdated, ir.ServerToClient), methodNamed(p, spec.MethodResourcesListChanged, ir.ServerToClient)
	if up == nil || lc == nil {
		return nil
	}
	r.UpdatedMethod, r.ListChangedMethod = up.Const, lc.Const
	r.NotFoundCode = spec.ResourceNotFoundCode(p.Modern)
	return r
}

// buildPrompts decides the Server's prompts from prompts/list and
// prompts/get, or returns nil.
func buildPrompts(p *ir.Protocol, t *ir.ToolSupport, defs map[string]ir.Decl) *ir.PromptSupport {
	list, get := methodNamed(p, spec.MethodListPrompts, ir.ClientToServer), methodNamed(p, spec.MethodGetPrompt, ir.ClientToServer)
	if list == nil || get == nil || t.Capability == "" {
		return nil
	}
	pr, arg := structOf(defs, "Prompt"), structOf(defs, "PromptArgument")
	gp, gr, lr := structOfType(get.Params), structOfType(get.Result), structOfType(list.Result)
	pf, af := fieldsOf(pr, "name", "arguments"), fieldsOf(arg, "name", "description", "required")
	gf, lf := fieldsOf(gp, "name", "arguments"), fieldsOf(lr, "prompts")
	if pf == nil || af == nil || gf == nil || gr == nil || lf == nil {
		return nil
	}
	if !toolField(arg, "description").Pointer() || !toolField(arg, "required").Pointer() {
		return nil
	}
	if t.Cursor != "" && fieldsOf(lr, spec.MemberNextCursor) == nil || t.TTL != "" && fieldsOf(lr, spec.MemberTTL, spec.MemberCacheScope) == nil {
		return nil
	}
	c := toolField(p.ServerCapabilities, "prompts")
	if c == nil || fieldsOf(structOfType(c.Type), "listChanged") == nil {
		return nil
	}
	m := methodNamed(p, spec.MethodPromptsListChanged, ir.ServerToClient)
	if m == nil {
		return nil
	}
	lp := listParams(list, t)
	if lp == "" {
		return nil
	}
	return &ir.PromptSupport{
		ListParams: lp,
		Prompt:     pr.Name, PromptName: pf[0], PromptArgs: pf[1],
		Arg: arg.Name, ArgName: af[0], ArgDesc: af[1], ArgReq: af[2],
		GetParams: gp.Name, GetName: gf[0], GetArgs: gf[1], GetResult: gr.Name,
		ListResult: lr.Name, ListField: lf[0],
		Capability: c.Name, CapabilityType: structOfType(c.Type).Name,
		ListChanged: fieldsOf(structOfType(c.Type), "listChanged")[0], ListChangedMethod: m.Const,
	}
}

// buildListen reports whether the Server can serve subscriptions/listen:
// the revision has it, with the filter and acknowledgement of 2026-07-28
// under the Go names the emitter writes.
func buildListen(p *ir.Protocol, t *ir.ToolSupport, defs map[string]ir.Decl) bool {
	if methodNamed(p, spec.MethodListen, ir.ClientToServer) == nil || t.Resources == nil || t.Prompts == nil || t.ListChangedMethod == "" {
		return false
	}
	want := map[string][]string{
		"SubscriptionFilter":                          {"toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions"},
		"SubscriptionsListenRequestParams":            {"notifications"},
		"SubscriptionsAcknowledgedNotificationParams": {spec.MemberMeta, "notifications"},
		"ResourceUpdatedNotificationParams":           {spec.MemberMeta, "uri"},
		"NotificationParams":                          {spec.MemberMeta},
		"NotificationMetaObject":                      {spec.MetaSubscriptionID},
		"SubscriptionsListenResultMetaObject":         {spec.MetaSubscriptionID},
	}
	for def, members := range want {
		if fieldsOf(structOf(defs, def), members...) == nil {
			return false
		}
	}
	return methodNamed(p, spec.MethodListenAcknowledged, ir.ServerToClient) != nil
}

// listParams is the Go name of a list method's params, with the cursor
// field tools/list's has; "" when they differ.
func listParams(m *ir.Method, t *ir.ToolSupport) string {
	st := structOfType(m.Params)
	if st == nil {
		return ""
	}
	if t.Cursor != "" {
		if c := toolField(st, spec.MemberCursor); c == nil || c.Name != t.Cursor || !c.Pointer() {
			return ""
		}
	}
	return st.Name
}
