package main

import (
	"context"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// Resources: two static ones (text and binary), one that changes every few
// seconds (subscribers of resources/updated hear of it), and a template
// whose instances are made on read.

const (
	templateURI = "test://template/{id}/data"
	watchedURI  = "test://watched-resource"
)

// The static contents do not change while the server runs; the watched
// resource changes every few seconds.
const contentTTL = time.Minute

// resource is a resource's definition: its URI, name, title, description
// and MIME type.
func resource(uri, name, title, description, mimeType string) mcp.Resource {
	return mcp.Resource{URI: uri, Name: name, Title: &title, Description: &description, MIMEType: &mimeType}
}

// cached marks a resources/read answer as fresh for ttl, for every caller.
func cached(r *mcp.ReadResourceResult, ttl time.Duration) *mcp.ReadResourceResult {
	r.TTLMs, r.CacheScope = ttl.Milliseconds(), mcp.CacheScopePublic
	return r
}

func addResources(s *mcp.Server) {
	mcp.AddResource(s, resource("test://static-text", "static-text", "Static text", "A static text resource.", "text/plain"),
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.TextResource(p.URI, "text/plain", "This is the content of the static text resource."), contentTTL), nil
		})
	mcp.AddResource(s, resource("test://static-binary", "static-binary", "Static binary", "A static binary resource (a PNG image).", "image/png"),
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.BlobResource(p.URI, "image/png", pngPixel), contentTTL), nil
		})
	mcp.AddResource(s, resource(watchedURI, "watched-resource", "Watched resource", "Changes every few seconds; subscribe to its updates.", "text/plain"),
		func(_ context.Context, p *mcp.ReadResourceRequestParams) (*mcp.ReadResourceResult, error) {
			return cached(mcp.TextResource(p.URI, "text/plain", "Watched resource, version "+watchedVersion()), 0), nil
		})
	title, description, mimeType := "Data by id", "Data for any id.", "application/json"
	mcp.AddResourceTemplate(s, mcp.ResourceTemplate{URITemplate: templateURI, Name: "template", Title: &title, Description: &description, MIMEType: &mimeType},
		func(_ context.Context, p *mcp.ReadResourceRequestParams, vars map[string]string) (*mcp.ReadResourceResult, error) {
			id := vars["id"]
			body := jsonText(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			return cached(mcp.TextResource(p.URI, mimeType, body), contentTTL), nil
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
//
//lint:ignore U1000 main.go starts it; replicas/cmd/everything-replicas shares this file and publishes under a lead instead.
func (s *server) watch(ctx context.Context) {
	t := time.NewTicker(watchedPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.hub.publish(event{method: mcp.MethodResourceUpdatedNotification, uri: watchedURI}); err != nil {
				s.log.Error("publish the watched resource's update", "err", err)
			}
		}
	}
}
