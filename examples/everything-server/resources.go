package main

import (
	"context"
	"encoding/base64"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Resources: two static ones (text and binary), one that changes every few
// seconds (subscribers of resources/updated hear of it), and a template
// whose instances are generated on read.

const (
	watchedURI  = "test://watched-resource"
	templateURI = "test://template/{id}/data"
)

// The static contents do not change while the server runs; the watched
// resource changes every few seconds.
const contentTTL = time.Minute

// cached gives a read result its cache hints.
func cached(r *mcp.ReadResourceResult, ttl time.Duration) *mcp.ReadResourceResult {
	r.TTLMs, r.CacheScope = ttl.Milliseconds(), mcp.CacheScopePublic
	return r
}

var pngBytes, _ = base64.StdEncoding.DecodeString(pngPixel)

func addResources(s *mcp.Server) {
	mcp.AddResource(s, mcp.Resource{URI: "test://static-text", Name: "static-text", Title: new("Static text"), Description: new("A static text resource."), MIMEType: new("text/plain")},
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.TextResource(p.URI, "text/plain", "This is the content of the static text resource."), contentTTL), nil
		})
	mcp.AddResource(s, mcp.Resource{URI: "test://static-binary", Name: "static-binary", Title: new("Static binary"), Description: new("A static binary resource (a PNG image)."), MIMEType: new("image/png")},
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.BlobResource(p.URI, "image/png", pngBytes), contentTTL), nil
		})
	mcp.AddResource(s, mcp.Resource{URI: watchedURI, Name: "watched-resource", Title: new("Watched resource"), Description: new("Changes every few seconds; subscribe to its updates."), MIMEType: new("text/plain")},
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.TextResource(p.URI, "text/plain", "Watched resource, version "+watchedVersion()), 0), nil
		})
	mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: templateURI, Name: "template", Title: new("Data by id"), Description: new("Data for any id."), MIMEType: new("application/json")},
		func(_ context.Context, p *mcp.ReadResourceRequestParams, vars map[string]string) (*mcp.ReadResourceResult, error) {
			id := vars["id"]
			if id == "" {
				return nil, mcp.ResourceNotFound(p.URI)
			}
			body := `{"id":` + jsonText(id) + `,"templateTest":true,"data":` + jsonText("Data for ID: "+id) + `}`
			return cached(mcp.TextResource(p.URI, "application/json", body), contentTTL), nil
		})
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
			s.ResourceUpdated(watchedURI)
		}
	}
}
