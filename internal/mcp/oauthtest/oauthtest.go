// Package oauthtest serves, for tests, a protected remote MCP server and
// the OAuth authorization server it sends clients to, as the MCP
// authorization spec has them: protected resource metadata, server
// metadata, dynamic client registration, an authorize endpoint that
// approves at once (standing in for the user in a browser), and a token
// endpoint that checks PKCE and refreshes.
package oauthtest

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// AuthServer is the authorization server.
type AuthServer struct {
	*httptest.Server

	mu         sync.Mutex
	challenge  string
	issued     []string // access tokens, in order
	refreshes  int
	seen       map[string]bool // request header names
	registered int             // dynamic client registrations
	redirect   string          // the redirect_uri of the last authorize request
}

// ClientID is the id the server registers every client under.
const ClientID = "reins-client"

// NewAuthServer starts an authorization server, closed when t ends.
func NewAuthServer(t testing.TB) *AuthServer {
	as := &AuthServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize",
			"token_endpoint": as.URL + "/token", "registration_endpoint": as.URL + "/register",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		if err := json.NewDecoder(r.Body).Decode(&md); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
			return
		}
		md["client_id"] = ClientID
		as.mu.Lock()
		as.registered++
		as.mu.Unlock()
		writeJSON(w, http.StatusCreated, md)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != ClientID || q.Get("response_type") != "code" {
			http.Error(w, "bad authorize request", http.StatusBadRequest)
			return
		}
		as.mu.Lock()
		as.challenge = q.Get("code_challenge")
		as.redirect = q.Get("redirect_uri")
		as.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code=the-code&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		as.mu.Lock()
		defer as.mu.Unlock()
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if r.Form.Get("code") != "the-code" || base64.RawURLEncoding.EncodeToString(sum[:]) != as.challenge {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
				return
			}
		case "refresh_token":
			if r.Form.Get("refresh_token") != "refresh-1" {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
				return
			}
			as.refreshes++
		default:
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
			return
		}
		tok := fmt.Sprintf("access-%d", len(as.issued)+1)
		as.issued = append(as.issued, tok)
		writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-1"})
	})
	// Set up before serving, so handlers read as.URL after it is set.
	as.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		as.mu.Lock()
		if as.seen == nil {
			as.seen = map[string]bool{}
		}
		for k := range r.Header {
			as.seen[http.CanonicalHeaderKey(k)] = true
		}
		as.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	as.Start()
	t.Cleanup(as.Close)
	return as
}

// Saw reports whether any request to the server carried the header.
func (as *AuthServer) Saw(header string) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.seen[http.CanonicalHeaderKey(header)]
}

// Registrations is how many clients registered themselves (dynamic
// client registration).
func (as *AuthServer) Registrations() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.registered
}

// RedirectURI is the redirect_uri of the last authorization request.
func (as *AuthServer) RedirectURI() string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.redirect
}

// Refreshes is how many refresh grants the server answered.
func (as *AuthServer) Refreshes() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.refreshes
}

// Latest is the last access token issued, "" before any.
func (as *AuthServer) Latest() string {
	as.mu.Lock()
	defer as.mu.Unlock()
	if len(as.issued) == 0 {
		return ""
	}
	return as.issued[len(as.issued)-1]
}

// NewProtectedServer serves an MCP server with one tool, echo (argument
// text, answer "protected: <text>"), over streamable HTTP or, with sse,
// the older SSE transport. It takes only as's latest token and otherwise
// answers 401 naming its resource metadata. It returns the MCP endpoint's
// URL.
func NewProtectedServer(t testing.TB, as *AuthServer, sse bool) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "protected", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo."},
		func(_ context.Context, _ *sdk.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "protected: " + in.Text}}}, nil, nil
		})
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	if sse {
		h = sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
	}
	var hs *httptest.Server
	hs = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/oauth-protected-resource" {
			writeJSON(w, http.StatusOK, map[string]any{"resource": hs.URL + "/mcp", "authorization_servers": []string{as.URL}})
			return
		}
		if tok := as.Latest(); tok == "" || r.Header.Get("Authorization") != "Bearer "+tok {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+hs.URL+`/.well-known/oauth-protected-resource"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
