package protocol_test

import (
	"context"
	"strings"
	"testing"
	"time"

	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// TestGeneratedOptionsAreOptional: the generated Connect and NewHTTPHandler
// take their options last and optional. Without them the defaults apply
// (the client introduces itself as mcpgen-client); with one, it is used;
// with two, Connect fails with an error naming it and NewHTTPHandler
// panics, rather than choosing one silently.
func TestGeneratedOptionsAreOptional(t *testing.T) {
	s := &mcp.Server{}
	mcp.AddTool(s, mcp.Tool{Name: "who"}, func(_ context.Context, p *mcp.CallToolRequestParams, _ struct{}) (*mcp.CallToolResult, error) {
		if p.Meta.ClientInfo == nil {
			return mcp.TextResult("anonymous"), nil
		}
		return mcp.TextResult(p.Meta.ClientInfo.Name), nil
	})
	d := mcp.NewServerDispatcher(s, mcp.ServerOptions{ServerInfo: mcp.Implementation{Name: "t", Version: "1"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr := &mcp.InMemoryTransport{Server: d}

	c, err := mcp.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Call(ctx, "who", struct{}{}); err != nil || res.Text() != "mcpgen-client" {
		t.Errorf("without options: %v, %v (want the default ClientInfo, mcpgen-client)", res, err)
	}
	c.Close()

	c, err = mcp.Connect(ctx, tr, nil, mcp.ClientOptions{ClientInfo: mcp.Implementation{Name: "named", Version: "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Call(ctx, "who", struct{}{}); err != nil || res.Text() != "named" {
		t.Errorf("with ClientOptions: %v, %v (want its ClientInfo, named)", res, err)
	}
	c.Close()

	if _, err := mcp.Connect(ctx, tr, nil, mcp.ClientOptions{}, mcp.ClientOptions{}); err == nil || !strings.Contains(err.Error(), "mcp: Connect: 2 options values given, at most one") {
		t.Errorf("two ClientOptions: %v", err)
	}

	if h := mcp.NewHTTPHandler(d); h == nil {
		t.Error("NewHTTPHandler(d) is nil")
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "mcp: NewHTTPHandler: 2 options values given") {
				t.Errorf("two HTTPOptions: recovered %v", r)
			}
		}()
		mcp.NewHTTPHandler(d, mcp.HTTPOptions{}, mcp.HTTPOptions{})
	}()
}
