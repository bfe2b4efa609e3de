package ir

// ToolSupport is what the tool set of a package (Server, AddTool,
// AddStructuredTool, TextResult, Registry) is emitted from: the Go names of
// the revision's tool types and of the members it reads and fills. The
// builder sets it when the revision's schema has tools/list and tools/call
// of the shape the specification gives them; every name is decided here,
// and the exported ones are claimed.
type ToolSupport struct {
	// Exported names the tool set declares.
	Set        string // Server
	Add        string // AddTool
	AddOutput  string // AddStructuredTool; "" when the revision has no structured results
	TextResult string // TextResult
	Adder      string // Registry: a *Server, or a dispatcher whose handler is one

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
	// ListChanged is the tools capability's listChanged field (*bool),
	// ListChangedMethod the Method constant of tools/list_changed; "" when
	// the revision has none.
	ListChanged, ListChangedMethod string

	// Resources and Prompts are the Server's resources and prompts; nil
	// when the revision's do not have the shape the specification gives
	// them.
	Resources *ResourceSupport
	Prompts   *PromptSupport
	// Listen says the Server serves subscriptions/listen (2026-07-28),
	// with the Go names of that revision's SubscriptionFilter.
	Listen bool
	// Helpers names the content types of the helpers.
	Helpers *ContentSupport
}

// Names are the exported names the tool set declares.
func (t *ToolSupport) Names() []string {
	names := []string{t.Set, t.Add, t.TextResult, t.Adder, "ErrorResult"}
	if t.AddOutput != "" {
		names = append(names, t.AddOutput)
	}
	if t.Resources != nil {
		names = append(names, "AddResource", "AddResourceTemplate", "ResourceNotFound", "TextContents", "BlobContents")
	}
	if t.Resources != nil {
		names = append(names, "TextResource", "BlobResource")
	}
	if t.Prompts != nil {
		names = append(names, "AddPrompt")
	}
	if c := t.Helpers; c != nil {
		names = append(names, "Text")
		for _, n := range []struct{ typ, fn string }{{c.Image, "Image"}, {c.Audio, "Audio"}, {c.Link, "Link"}} {
			if n.typ != "" {
				names = append(names, n.fn)
			}
		}
		if t.Resources != nil && c.Embedded != "" {
			names = append(names, "EmbeddedText", "EmbeddedBlob")
		}
		if t.Prompts != nil && c.PromptMessage != "" {
			names = append(names, "UserMessage", "AssistantMessage", "PromptResult", "TextPrompt")
		}
	}
	return names
}

// ResourceSupport is what AddResource, AddResourceTemplate and the
// Server's resources/list, resources/templates/list and resources/read are
// emitted from: the Go names of the revision's resource types. The list
// results' cursor and cache fields have the Go names of ListToolsResult's
// (ToolSupport).
type ResourceSupport struct {
	Resource, ResourceURI string // Resource, Resource.URI
	Template, TemplateURI string // ResourceTemplate, ResourceTemplate.URITemplate

	ReadParams, ReadURI string // ReadResourceRequestParams, its URI
	ReadResult          string // ReadResourceResult
	// ReadContents is ReadResourceResult.Contents, a slice of
	// ContentsItem, the union of TextContents and BlobContents (with
	// their URI, MIME type, Text and Blob fields).
	ReadContents, ContentsItem       string
	TextContents, BlobContents       string
	ContentsURI, ContentsMIME        string
	ContentsText, ContentsBlob       string
	ListParams, TemplatesParams      string // the params of resources/list and resources/templates/list
	ListResult, ListField            string // ListResourcesResult, Resources
	TemplatesResult, TemplatesField  string // ListResourceTemplatesResult, ResourceTemplates
	Capability, CapabilityType       string // ServerCapabilities.Resources, ServerCapabilitiesResources
	ListChanged, Subscribe           string // the capability's listChanged and subscribe fields (*bool)
	UpdatedMethod, ListChangedMethod string // the Method constants of the notifications
	NotFoundCode                     int    // the error code of an unknown URI
}

// PromptSupport is what AddPrompt and the Server's prompts/list and
// prompts/get are emitted from.
type PromptSupport struct {
	Prompt, PromptName, PromptArgs string // Prompt, Name, Arguments
	Arg, ArgName, ArgDesc, ArgReq  string // PromptArgument, Name, Description (*string), Required (*bool)
	GetParams, GetName, GetArgs    string // GetPromptRequestParams, Name, Arguments (map[string]string)
	GetResult                      string // GetPromptResult
	ListParams                     string // the params of prompts/list
	ListResult, ListField          string // ListPromptsResult, Prompts
	Capability, CapabilityType     string // ServerCapabilities.Prompts, ServerCapabilitiesPrompts
	ListChanged                    string // the capability's listChanged field (*bool)
	ListChangedMethod              string // the Method constant of prompts/list_changed
}

// ContentSupport names the content types the helpers (Text, Image,
// Audio, Link, EmbeddedText, EmbeddedBlob, ErrorResult) build; a name is
// "" when the revision lacks that type (no audio before 2025-03-26, no
// resource links before 2025-06-18).
type ContentSupport struct {
	Image, Audio, Link, Embedded string
	// EmbeddedOf is the union of an EmbeddedResource's resource (the text
	// and blob resource contents of ResourceSupport).
	EmbeddedOf string
	// Role, RoleUser and RoleAssistant are the Role enum and its
	// constants; PromptMessage its message with Role and Content.
	Role, RoleUser, RoleAssistant string
	PromptMessage, PromptContent  string // PromptMessage, and its content union
}
