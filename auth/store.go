package auth

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// TokenStore keeps what a client obtained: access and refresh tokens
// (under a key naming the MCP server) and client registrations (under a
// key naming the authorization server's issuer). Values are opaque JSON;
// an implementation that persists them must keep them confidential.
// Load returns nil and no error for a key it has no value for; Save with
// a nil value deletes.
type TokenStore interface {
	Load(ctx context.Context, key string) ([]byte, error)
	Save(ctx context.Context, key string, value []byte) error
}

// MemoryStore is a TokenStore in memory, the default. Its zero value is
// ready to use.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *MemoryStore) Load(_ context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key], nil
}

func (s *MemoryStore) Save(_ context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if value == nil {
		delete(s.m, key)
		return nil
	}
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[key] = append([]byte(nil), value...)
	return nil
}

// tokenRecord is what is stored under tokenKey(server).
type tokenRecord struct {
	Issuer       string    `json:"issuer"`
	Resource     string    `json:"resource"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Requested    []string  `json:"requested,omitempty"` // scopes asked for
	Granted      []string  `json:"granted,omitempty"`   // scopes the token response named, else Requested
}

func (r *tokenRecord) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: r.AccessToken, TokenType: r.TokenType, RefreshToken: r.RefreshToken, Expiry: r.Expiry}
}

// valid reports whether the access token can still be sent, with a
// margin for the clocks and the request's own time.
func (r *tokenRecord) valid(now time.Time) bool {
	return r != nil && r.AccessToken != "" && (r.Expiry.IsZero() || now.Add(10*time.Second).Before(r.Expiry))
}

func tokenKey(server string) string  { return "token " + server }
func clientKey(issuer string) string { return "client " + issuer }

func loadJSON(ctx context.Context, s TokenStore, key string, v any) (bool, error) {
	b, err := s.Load(ctx, key)
	if err != nil || b == nil {
		return false, err
	}
	return true, json.Unmarshal(b, v)
}

func saveJSON(ctx context.Context, s TokenStore, key string, v any) error {
	if v == nil {
		return s.Save(ctx, key, nil)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.Save(ctx, key, b)
}
