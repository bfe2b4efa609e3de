package interop

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpgen/mcpgen/auth"
	mcp "github.com/mcpgen/mcpgen/generated/mcp20260728"
)

// The Hydra tests run one Hydra (v2.3.0, the tool of go.mod) and one
// examples/everything-server for all of them, started by the first test
// that needs them and stopped by TestMain. Each test protects
// everything-server with an auth.ResourceServer of its own (a reverse
// proxy in the test process, since the server is a program) and calls it
// with the generated 2026-07-28 Client over an auth.Transport.

var (
	hydraOnce sync.Once
	theHydra  *hydra
	hydraErr  error

	serverOnce     sync.Once
	everything     *url.URL // everything-server's MCP endpoint
	everythingErr  error
	stopEverything func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	if theHydra != nil {
		theHydra.stop()
	}
	if stopEverything != nil {
		stopEverything()
	}
	os.Exit(code)
}

// hydra is a running Hydra.
type hydra struct {
	public, admin string // base URLs
	issuer        string
	ui            string // base of the login and consent "UI", where nothing listens
	cmd           *exec.Cmd
	done          chan struct{}
	logs          *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startedHydra returns the Hydra of the tests, building and starting it
// the first time. A test fails (never skips) when that is impossible, for
// example without a C compiler for Hydra's sqlite.
func startedHydra(t *testing.T) *hydra {
	t.Helper()
	hydraOnce.Do(func() {
		var bin string
		if bin, hydraErr = hydraBinary(); hydraErr == nil {
			theHydra, hydraErr = startHydra(bin)
		}
	})
	if hydraErr != nil {
		t.Fatal(hydraErr)
	}
	return theHydra
}

// hydraBinary builds Hydra (the tool of this module) once per version of
// go.mod, go.sum and Go, into the user's cache directory: the first build
// takes about two minutes on two cores, a cached one none.
func hydraBinary() (string, error) {
	h := sha256.New()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	fmt.Fprint(h, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "mcpgen", "hydra")
	bin := filepath.Join(dir, "hydra-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := bin + ".tmp"
	start := time.Now()
	// The sqlite tags make the in-memory DSN ("memory") available; without
	// them Hydra refuses it. go-sqlite3 is cgo: this needs a C compiler.
	cmd := exec.Command("go", "build", "-tags", "sqlite,sqlite_omit_load_extension", "-o", tmp, "github.com/ory/hydra/v2")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building Hydra (the tool of auth/interop/go.mod; it needs a C compiler): %v\n%s", err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "built %s in %v\n", bin, time.Since(start).Round(time.Second))
	return bin, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startHydra starts Hydra with in-memory storage on two free loopback
// ports. Its access tokens are JWTs whose scopes are in both scp and
// scope; PKCE is enforced; dynamic client registration is on.
func startHydra(bin string) (*hydra, error) {
	pub, err := freePort()
	if err != nil {
		return nil, err
	}
	adm, err := freePort()
	if err != nil {
		return nil, err
	}
	h := &hydra{
		public: fmt.Sprintf("http://127.0.0.1:%d", pub),
		admin:  fmt.Sprintf("http://127.0.0.1:%d", adm),
		ui:     "http://127.0.0.1:9/ui", // the tests accept login and consent through the admin API
		done:   make(chan struct{}),
		logs:   &syncBuffer{},
	}
	h.issuer = h.public
	cfg := fmt.Sprintf(`dsn: memory
serve:
  public: {host: 127.0.0.1, port: %d}
  admin: {host: 127.0.0.1, port: %d}
urls:
  self: {issuer: %s}
  login: %s/login
  consent: %s/consent
secrets:
  system: [interop-tests-system-secret-0123456789]
strategies:
  access_token: jwt
  jwt: {scope_claim: both}
oauth2:
  pkce: {enforced: true}
oidc:
  dynamic_client_registration: {enabled: true}
webfinger:
  oidc_discovery: {client_registration_url: %s/oauth2/register}
log: {level: warn}
`, pub, adm, h.issuer, h.ui, h.ui, h.public)
	dir, err := os.MkdirTemp("", "mcpgen-hydra-")
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, "hydra.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	// --dev allows an http issuer; --sqa-opt-out sends no telemetry.
	h.cmd = exec.Command(bin, "serve", "all", "--dev", "--sqa-opt-out", "-c", cfgPath)
	h.cmd.Stdout, h.cmd.Stderr = h.logs, h.logs
	h.cmd.Env = append(os.Environ(), "HOME="+dir)
	if err := h.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { h.cmd.Wait(); os.RemoveAll(dir); close(h.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(h.admin + "/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return h, nil
			}
		}
		select {
		case <-h.done:
			return nil, fmt.Errorf("hydra exited:\n%s", h.logs)
		default:
		}
		if time.Now().After(deadline) {
			h.stop()
			return nil, fmt.Errorf("hydra not ready after 30s:\n%s", h.logs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (h *hydra) stop() {
	h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
	case <-time.After(5 * time.Second):
		h.cmd.Process.Kill()
		<-h.done
	}
}

// adminJSON calls Hydra's admin API.
func (h *hydra) adminJSON(method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, h.admin+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// createClient registers an OAuth client through the admin API.
func (h *hydra) createClient(t *testing.T, client map[string]any) {
	t.Helper()
	if err := h.adminJSON("POST", "/admin/clients", client, nil); err != nil {
		t.Fatal(err)
	}
}

// consentAgent is the auth.Interaction of the tests: it plays the user's
// browser against Hydra (a cookie jar, no redirects followed on its own)
// and accepts login and consent through the admin API, granting the
// scopes asked for and, as the access token's audience, the resource
// parameter of the authorization request (Hydra does not implement RFC
// 8707: its consent step decides the audience).
type consentAgent struct {
	h        *hydra
	redirect string
	subject  string
	consents int // how many times the user consented
}

func (a *consentAgent) RedirectURI(context.Context) (string, error) { return a.redirect, nil }

func (a *consentAgent) Authorize(ctx context.Context, authURL string) (url.Values, error) {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	next := authURL
	for range 10 {
		u, err := url.Parse(next)
		if err != nil {
			return nil, err
		}
		switch {
		case strings.HasPrefix(next, a.redirect):
			return u.Query(), nil
		case strings.HasPrefix(next, a.h.ui+"/login"):
			var out struct {
				RedirectTo string `json:"redirect_to"`
			}
			if err := a.h.adminJSON("PUT", "/admin/oauth2/auth/requests/login/accept?login_challenge="+url.QueryEscape(u.Query().Get("login_challenge")), map[string]any{"subject": a.subject}, &out); err != nil {
				return nil, err
			}
			next = out.RedirectTo
			continue
		case strings.HasPrefix(next, a.h.ui+"/consent"):
			challenge := u.Query().Get("consent_challenge")
			var cr struct {
				RequestedScope []string `json:"requested_scope"`
				RequestURL     string   `json:"request_url"`
			}
			if err := a.h.adminJSON("GET", "/admin/oauth2/auth/requests/consent?consent_challenge="+url.QueryEscape(challenge), nil, &cr); err != nil {
				return nil, err
			}
			orig, err := url.Parse(cr.RequestURL)
			if err != nil {
				return nil, err
			}
			var out struct {
				RedirectTo string `json:"redirect_to"`
			}
			if err := a.h.adminJSON("PUT", "/admin/oauth2/auth/requests/consent/accept?consent_challenge="+url.QueryEscape(challenge), map[string]any{
				"grant_scope":                 cr.RequestedScope,
				"grant_access_token_audience": orig.Query()["resource"],
			}, &out); err != nil {
				return nil, err
			}
			a.consents++
			next = out.RedirectTo
			continue
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, next, nil)
		if err != nil {
			return nil, err
		}
		resp, err := browser.Do(req)
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 3 {
			return nil, fmt.Errorf("GET %s: %s: %s", next, resp.Status, b)
		}
		loc, err := u.Parse(resp.Header.Get("Location"))
		if err != nil {
			return nil, err
		}
		next = loc.String()
	}
	return nil, errors.New("too many redirects")
}

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/mcp)`)

// everythingServer returns the MCP endpoint of examples/everything-server
// (built from mcpgen's module and started the first time), which no
// authorization protects: the tests put a ResourceServer in front of it.
func everythingServer(t *testing.T) *url.URL {
	t.Helper()
	serverOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcpgen-everything-")
		if err != nil {
			everythingErr = err
			return
		}
		bin := filepath.Join(dir, "everything-server")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpgen/mcpgen/examples/everything-server").CombinedOutput(); err != nil {
			everythingErr = fmt.Errorf("building everything-server: %v\n%s", err, out)
			return
		}
		cmd := exec.Command(bin, "-http", "127.0.0.1:0")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			everythingErr = err
			return
		}
		if err := cmd.Start(); err != nil {
			everythingErr = err
			return
		}
		done := make(chan struct{})
		found := make(chan string, 1)
		logs := &syncBuffer{}
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				fmt.Fprintln(logs, sc.Text())
				if m := listening.FindStringSubmatch(sc.Text()); m != nil {
					select {
					case found <- m[1]:
					default:
					}
				}
			}
			cmd.Wait()
			os.RemoveAll(dir)
			close(done)
		}()
		stopEverything = func() {
			cmd.Process.Signal(os.Interrupt)
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		}
		select {
		case u := <-found:
			everything, everythingErr = url.Parse(u)
		case <-done:
			everythingErr = fmt.Errorf("everything-server exited:\n%s", logs)
		case <-time.After(30 * time.Second):
			everythingErr = fmt.Errorf("everything-server did not say where it listens:\n%s", logs)
		}
	})
	if everythingErr != nil {
		t.Fatal(everythingErr)
	}
	return everything
}

// protectedEverything serves everything-server at /mcp of a new test
// server, behind a ResourceServer that trusts h and needs mcp:tools for
// every request (and more for what configure adds); it returns the
// endpoint's URL. The proxy does not pass the token on.
func protectedEverything(t *testing.T, h *hydra, verifier func(resource string) auth.Verifier, configure func(*auth.ResourceServer)) string {
	target := everythingServer(t)
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(&url.URL{Scheme: target.Scheme, Host: target.Host})
			pr.Out.URL.Path = target.Path
			pr.Out.Header.Del("Authorization")
		},
		FlushInterval: -1, // event streams as they come
	}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	resource := srv.URL + "/mcp"
	rs := &auth.ResourceServer{Resource: resource, AuthorizationServers: []string{h.issuer}, Verifier: verifier(resource), Scopes: []string{"mcp:tools"}, ResourceName: "everything-server"}
	if configure != nil {
		configure(rs)
	}
	rs.Handle(mux, proxy)
	return resource
}

// jwtVerifier verifies Hydra's JWT access tokens. It has no JWKSURL: it
// finds Hydra's jwks_uri through discovery (OpenID Connect discovery, the
// only one Hydra serves).
func jwtVerifier(h *hydra) func(string) auth.Verifier {
	return func(resource string) auth.Verifier {
		return &auth.JWTVerifier{Issuer: h.issuer, Audience: []string{resource}}
	}
}

// callEverything connects to resource with the generated Client over
// tr, lists the tools and calls test_simple_text.
func callEverything(t *testing.T, tr *auth.Transport, resource string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c, err := mcp.Connect(ctx, &mcp.HTTPTransport{URL: resource, Client: tr.Client()}, &mcp.UnimplementedClientHandler{}, mcp.ClientOptions{AuthContext: tr.AuthContext(), Logger: slog.New(slog.NewTextHandler(t.Output(), nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tools, err := c.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) < 10 {
		t.Fatalf("%d tools", len(tools.Tools))
	}
	res, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "test_simple_text", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if txt, ok := res.Content[0].(*mcp.TextContent); !ok || txt.Text == "" || res.GetIsError() {
		t.Fatalf("test_simple_text: %+v", res)
	}
}

// TestHydraAuthorizationCode: a pre-registered public client gets a token
// by the authorization code grant with PKCE (login and consent accepted
// through Hydra's admin API), calls everything-server behind the
// middleware, steps up when a tool needs another scope, and refreshes the
// token (Hydra rotates refresh tokens).
func TestHydraAuthorizationCode(t *testing.T) {
	h := startedHydra(t)
	resource := protectedEverything(t, h, jwtVerifier(h), func(rs *auth.ResourceServer) {
		rs.ToolScopes = map[string][]string{"test_simple_text": {"mcp:call"}}
	})
	redirect := "http://127.0.0.1:9/callback"
	h.createClient(t, map[string]any{
		"client_id":                  "mcp-cli",
		"client_name":                "mcp interop CLI",
		"token_endpoint_auth_method": "none",
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"redirect_uris":              []string{redirect},
		"scope":                      "mcp:tools mcp:call offline_access",
		// Hydra refreshes a token only for audiences the client may have;
		// the consent step grants this one (the resource parameter).
		"audience": []string{resource},
	})
	var skew time.Duration
	var mu sync.Mutex
	agent := &consentAgent{h: h, redirect: redirect, subject: "alice@example.com"}
	tr, err := auth.NewTransport(resource, auth.Config{
		Grant: &auth.AuthorizationCode{Client: &auth.ClientInfo{ClientID: "mcp-cli"}, Interaction: agent},
		Now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			return time.Now().Add(skew)
		},
		Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	callEverything(t, tr, resource)
	if agent.consents != 2 {
		t.Errorf("%d consents, want 2 (mcp:tools, then the step-up to mcp:call)", agent.consents)
	}
	tok, _ := tr.Token(t.Context())
	if tok == nil || tok.RefreshToken == "" {
		t.Fatal("no refresh token (offline_access)")
	}
	// The Transport believes the token expired: it refreshes it.
	mu.Lock()
	skew = 2 * time.Hour
	mu.Unlock()
	callEverything(t, tr, resource)
	tok2, _ := tr.Token(t.Context())
	if tok2.AccessToken == tok.AccessToken || tok2.RefreshToken == tok.RefreshToken {
		t.Fatal("the token was not refreshed (Hydra rotates refresh tokens)")
	}
	if agent.consents != 2 {
		t.Errorf("the refresh asked the user again (%d consents)", agent.consents)
	}
	mu.Lock()
	skew = 0
	mu.Unlock()
	callEverything(t, tr, resource)

	// Hydra's token names this resource: another MCP server refuses it.
	other := protectedEverything(t, h, jwtVerifier(h), nil)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, other, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer "+tok2.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(ch, `error="invalid_token"`) {
		t.Errorf("a token for another resource: %s, %q", resp.Status, ch)
	}
}

// TestHydraDynamicRegistration: without a pre-registered client, the
// Transport registers one (RFC 7591) at Hydra's registration endpoint.
func TestHydraDynamicRegistration(t *testing.T) {
	h := startedHydra(t)
	resource := protectedEverything(t, h, jwtVerifier(h), nil)
	tr, err := auth.NewTransport(resource, auth.Config{
		Grant: &auth.AuthorizationCode{
			ClientName:  "mcp interop (dynamic)",
			Interaction: &consentAgent{h: h, redirect: "http://127.0.0.1:9/callback", subject: "bob@example.com"},
		},
		Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	callEverything(t, tr, resource)
}

// TestHydraClientCredentials: a machine client with a secret
// (client_secret_basic) gets a token by the client credentials grant;
// the middleware verifies it as a JWT, or by introspection (RFC 7662).
func TestHydraClientCredentials(t *testing.T) {
	h := startedHydra(t)
	for _, tc := range []struct {
		name     string
		verifier func(string) auth.Verifier
	}{
		{"jwt", jwtVerifier(h)},
		{"introspection", func(resource string) auth.Verifier {
			// Hydra's introspection endpoint is on its admin port, without
			// client authentication.
			return &auth.IntrospectionVerifier{Endpoint: h.admin + "/admin/oauth2/introspect", Issuer: h.issuer, Audience: []string{resource}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resource := protectedEverything(t, h, tc.verifier, nil)
			id := "mcp-machine-" + tc.name
			h.createClient(t, map[string]any{
				"client_id":                  id,
				"client_secret":              "machine-secret-0123456789",
				"token_endpoint_auth_method": "client_secret_basic",
				"grant_types":                []string{"client_credentials"},
				"scope":                      "mcp:tools",
				"audience":                   []string{resource},
			})
			tr, err := auth.NewTransport(resource, auth.Config{
				Grant: &auth.ClientCredentials{
					Client: auth.ClientInfo{ClientID: id, ClientSecret: "machine-secret-0123456789"},
					// Hydra gives a client credentials token an audience only
					// through its own audience parameter.
					Params: url.Values{"audience": {resource}},
				},
				Logf: t.Logf,
			})
			if err != nil {
				t.Fatal(err)
			}
			callEverything(t, tr, resource)
		})
	}
}

// TestHydraPrivateKeyJWT: a machine client authenticates with a
// private_key_jwt assertion (ES256).
func TestHydraPrivateKeyJWT(t *testing.T) {
	h := startedHydra(t)
	resource := protectedEverything(t, h, jwtVerifier(h), nil)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h.createClient(t, map[string]any{
		"client_id":                       "mcp-machine-pkjwt",
		"token_endpoint_auth_method":      "private_key_jwt",
		"token_endpoint_auth_signing_alg": "ES256",
		"jwks":                            jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "m1", Algorithm: "ES256", Use: "sig"}}},
		"grant_types":                     []string{"client_credentials"},
		"scope":                           "mcp:tools",
		"audience":                        []string{resource},
	})
	tr, err := auth.NewTransport(resource, auth.Config{
		Grant: &auth.ClientCredentials{
			// Hydra v2.3.0 wants its token endpoint as the assertion's aud,
			// not its issuer (draft-ietf-oauth-rfc7523bis).
			Client: auth.ClientInfo{ClientID: "mcp-machine-pkjwt", Key: key, KeyID: "m1", AssertionAudience: h.public + "/oauth2/token"},
			Params: url.Values{"audience": {resource}},
		},
		Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	callEverything(t, tr, resource)
}

// TestHydraPrincipal: the subject of Hydra's token reaches the handlers
// of a server in the test process (a generated 2026-07-28 dispatcher
// whose tools/list names the principal's subject).
func TestHydraPrincipal(t *testing.T) {
	h := startedHydra(t)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resource := srv.URL + "/mcp"
	rs := &auth.ResourceServer{Resource: resource, AuthorizationServers: []string{h.issuer}, Verifier: jwtVerifier(h)(resource), Scopes: []string{"mcp:tools"}}
	rs.Handle(mux, newServer20260728())
	h.createClient(t, map[string]any{
		"client_id":                  "mcp-machine-principal",
		"client_secret":              "machine-secret-0123456789",
		"token_endpoint_auth_method": "client_secret_basic",
		"grant_types":                []string{"client_credentials"},
		"scope":                      "mcp:tools",
		"audience":                   []string{resource},
	})
	tr, err := auth.NewTransport(resource, auth.Config{
		Grant: &auth.ClientCredentials{Client: auth.ClientInfo{ClientID: "mcp-machine-principal", ClientSecret: "machine-secret-0123456789"}, Params: url.Values{"audience": {resource}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	names, err := list20260728(ctx, resource, tr.Client())
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != "mcp-machine-principal" {
		t.Fatalf("tools %q, want the client's subject", names)
	}
}
