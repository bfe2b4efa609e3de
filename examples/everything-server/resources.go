package main

import (
	"context"
	"strings"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Resources: two static ones (text and binary), one that changes every few
// seconds (subscribers of resources/updated hear of it), and a template
// whose instances are generated on read.

type resource struct {
	def  mcp.Resource
	read func(uri string) []mcp.ReadResourceResultContentsItem
}

var resources = []resource{
	{
		def: decode[mcp.Resource](`{"uri":"test://static-text","name":"static-text","title":"Static text","description":"A static text resource.","mimeType":"text/plain"}`),
		read: func(uri string) []mcp.ReadResourceResultContentsItem {
			return []mcp.ReadResourceResultContentsItem{textContents(uri, "text/plain", "This is the content of the static text resource.")}
		},
	},
	{
		def: decode[mcp.Resource](`{"uri":"test://static-binary","name":"static-binary","title":"Static binary","description":"A static binary resource (a PNG image).","mimeType":"image/png"}`),
		read: func(uri string) []mcp.ReadResourceResultContentsItem {
			return []mcp.ReadResourceResultContentsItem{blobContents(uri, "image/png", pngPixel)}
		},
	},
	{
		def: decode[mcp.Resource](`{"uri":"test://watched-resource","name":"watched-resource","title":"Watched resource","description":"Changes every few seconds; subscribe to its updates.","mimeType":"text/plain"}`),
		read: func(uri string) []mcp.ReadResourceResultContentsItem {
			return []mcp.ReadResourceResultContentsItem{textContents(uri, "text/plain", "Watched resource, version "+watchedVersion())}
		},
	},
}

const templateURI = "test://template/{id}/data"

var templates = []mcp.ResourceTemplate{
	decode[mcp.ResourceTemplate](`{"uriTemplate":"` + templateURI + `","name":"template","title":"Data by id","description":"Data for any id.","mimeType":"application/json"}`),
}

// watchedPeriod is how often the watched resource changes.
const watchedPeriod = 3 * time.Second

var started = time.Now()

func watchedVersion() string {
	return time.Since(started).Truncate(watchedPeriod).String()
}

// watch announces a change of the watched resource every period until ctx
// is done.
func (s *server) watch(ctx context.Context) {
	t := time.NewTicker(watchedPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.hub.publish(event{method: mcp.MethodResourceUpdatedNotification, uri: "test://watched-resource"})
		}
	}
}

func findResource(uri string) (resource, bool) {
	for _, r := range resources {
		if r.def.URI == uri {
			return r, true
		}
	}
	return resource{}, false
}

// The lists and static contents do not change while the server runs;
// the watched resource changes every few seconds.
const (
	listTTL    = time.Hour
	contentTTL = time.Minute
)

func (s *server) ListResources(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListResourcesResult, error) {
	var defs []mcp.Resource
	for _, r := range resources {
		defs = append(defs, r.def)
	}
	return &mcp.ListResourcesResult{Resources: defs, TTLMs: listTTL.Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
}

func (s *server) ListResourceTemplates(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListResourceTemplatesResult, error) {
	return &mcp.ListResourceTemplatesResult{ResourceTemplates: templates, TTLMs: listTTL.Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
}

func (s *server) ReadResource(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
	if r, ok := findResource(p.URI); ok {
		ttl := contentTTL
		if p.URI == "test://watched-resource" {
			ttl = 0
		}
		return &mcp.ReadResourceResult{Contents: r.read(p.URI), TTLMs: ttl.Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
	}
	if id, ok := templateID(p.URI); ok {
		body := `{"id":` + jsonText(id) + `,"templateTest":true,"data":` + jsonText("Data for ID: "+id) + `}`
		return &mcp.ReadResourceResult{Contents: []mcp.ReadResourceResultContentsItem{textContents(p.URI, "application/json", body)},
			TTLMs: contentTTL.Milliseconds(), CacheScope: mcp.CacheScopePublic}, nil
	}
	// resources.mdx: an unknown resource is invalid params (-32602) with
	// the URI in the error's data, never an empty contents list.
	return nil, &mcp.RPCError{Code: mcp.CodeInvalidParams, Message: "resource not found: " + p.URI, Data: []byte(`{"uri":` + jsonText(p.URI) + `}`)}
}

// templateID matches uri against test://template/{id}/data.
func templateID(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, "test://template/")
	if !ok {
		return "", false
	}
	id, ok := strings.CutSuffix(rest, "/data")
	if !ok || id == "" || strings.Contains(id, "/") {
		return "", false
	}
	return id, true
}
