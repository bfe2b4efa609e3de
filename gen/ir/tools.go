package ir

// ToolSupport is what the tool set of a package (Tools, AddTool,
// AddStructuredTool, TextResult, ToolAdder) is emitted from: the Go names of
// the revision's tool types and of the members it reads and fills. The
// builder sets it when the revision's schema has tools/list and tools/call
// of the shape the specification gives them; every name is decided here,
// and the exported ones are claimed.
type ToolSupport struct {
	// Exported names the tool set declares.
	Set        string // Tools
	Add        string // AddTool
	AddOutput  string // AddStructuredTool; "" when the revision has no structured results
	TextResult string // TextResult
	Adder      string // ToolAdder: a *Tools, or a dispatcher whose handler is one

	Tool        string // Tool
	ToolName    string // Tool.Name
	InputSchema string // Tool.InputSchema (a struct, not a pointer)
	// OutputSchema is Tool.OutputSchema (a pointer to OutputSchemaType);
	// "" before 2025-06-18.
	OutputSchema, OutputSchemaType string

	CallParams string // CallToolRequestParams
	CallName   string // CallToolRequestParams.Name
	Arguments  string // CallToolRequestParams.Arguments (raw JSON)

	Result      string // CallToolResult
	Content     string // CallToolResult.Content, a slice of ContentItem
	ContentItem string // the content union: ContentBlock
	Text        string // the union's text branch: TextContent
	TextField   string // TextContent.Text
	IsError     string // CallToolResult.IsError (*bool)
	// Structured is CallToolResult.StructuredContent (raw JSON); "" before
	// 2025-06-18.
	Structured string

	ListParams string // the params of tools/list: PaginatedRequestParams
	Cursor     string // its cursor field (a pointer), or ""
	ListResult string // ListToolsResult
	ListTools  string // ListToolsResult.Tools
	// TTL and CacheScope are ListToolsResult's ttlMs and cacheScope
	// fields (2026-07-28); CacheScopeType and CacheScopePublic the enum
	// and its "public" constant. All "" in earlier revisions.
	TTL, CacheScope, CacheScopeType, CacheScopePublic string

	// Capability is ServerCapabilities' tools field (a pointer to
	// CapabilityType), which the dispatcher sets when its handler is (or
	// embeds) a Tools; "" when the revision has none of that shape.
	Capability, CapabilityType string
}

// Names are the exported names the tool set declares.
func (t *ToolSupport) Names() []string {
	names := []string{t.Set, t.Add, t.TextResult, t.Adder}
	if t.AddOutput != "" {
		names = append(names, t.AddOutput)
	}
	return names
}
