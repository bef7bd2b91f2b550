package mcp

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/mcp/oauthtest"
)

// browse stands in for the user's browser: it follows the authorization
// address, which the fake server approves, back to reins's listener.
func browse(u string) error {
	go func() {
		if resp, err := http.Get(u); err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// TestLoginStoresTokensThatConnectAndRefresh: before login the server
// needs auth; login runs registration, PKCE and the code exchange and
// stores the tokens (owner-only file); a session then connects with
// them, and an expired token is refreshed and saved.
func TestLoginStoresTokensThatConnectAndRefresh(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	cfg := ServerConfig{Type: "http", URL: oauthtest.NewProtectedServer(t, as, false), Headers: map[string]string{"X-Api-Key": "for-the-server-only"}}
	store := &CredentialStore{Path: filepath.Join(t.TempDir(), "creds", "mcp-credentials.json")}
	servers := []Server{{Name: "demo", Scope: ScopeUser, Config: cfg}}

	m := startManager(t, Options{Servers: servers, Credentials: store})
	if st := m.Status()[0]; st.State != StateNeedsAuth {
		t.Fatalf("before login: status %+v, want needs-auth", st)
	}

	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := Login(ctx, "demo", cfg, store, LoginOptions{Out: &out, Open: browse}); err != nil {
		t.Fatalf("Login: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), as.URL+"/authorize?") || !strings.Contains(out.String(), "Logged in to demo") {
		t.Errorf("login output does not show the address and the outcome:\n%s", out.String())
	}
	if as.Saw("X-Api-Key") {
		t.Error("the server's configured header was sent to its authorization server")
	}
	fi, err := os.Stat(store.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, mode %v; want 0600", err, fi.Mode())
	}

	m = startManager(t, Options{Servers: servers, Credentials: store})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("after login: status %+v, want connected", st)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__demo__echo"), `{"text":"hi"}`)
	if err != nil || resultText(res) != "protected: hi" {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}

	// An expired token is refreshed, and the new one saved.
	c, _ := store.get("demo", cfg.URL)
	c.Expiry = time.Now().Add(-time.Minute)
	if err := store.put("demo", cfg.URL, c); err != nil {
		t.Fatal(err)
	}
	m = startManager(t, Options{Servers: servers, Credentials: store})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("with an expired token: status %+v, want connected after a refresh", st)
	}
	if c2, _ := store.get("demo", cfg.URL); as.Refreshes() != 1 || c2.AccessToken != "access-2" || !c2.Expiry.After(time.Now()) {
		t.Errorf("after refresh: %d refreshes, stored %q expiring %v", as.Refreshes(), c2.AccessToken, c2.Expiry)
	}

	// Tokens belong to the server's name and address: another address
	// does not get them.
	if _, ok := store.tokenSource("demo", "http://elsewhere.example/mcp"); ok {
		t.Error("tokens offered to another address")
	}
	if had, err := store.Remove("demo", cfg.URL); !had || err != nil {
		t.Errorf("Remove = %v, %v", had, err)
	}
	if _, ok := store.get("demo", cfg.URL); ok {
		t.Error("tokens still stored after Remove")
	}
}

// TestLoginRefusesAServerThatDoesNotAsk: a server that answers without
// asking for authorization is reported, and nothing is stored.
func TestLoginRefusesAServerThatDoesNotAsk(t *testing.T) {
	hs, _ := newHTTPServer(t, false, "")
	store := &CredentialStore{Path: filepath.Join(t.TempDir(), "c.json")}
	err := Login(context.Background(), "open", ServerConfig{Type: "http", URL: hs.URL}, store, LoginOptions{Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "did not ask for authorization") {
		t.Fatalf("Login = %v", err)
	}
	if _, err := os.Stat(store.Path); !os.IsNotExist(err) {
		t.Errorf("credentials file written for a server that needs none: %v", err)
	}
}

// TestManagerLoginReconnects: logging in through a running manager (the
// terminal UI's /mcp login) connects the server that needed auth.
func TestManagerLoginReconnects(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	cfg := ServerConfig{Type: "http", URL: oauthtest.NewProtectedServer(t, as, false)}
	store := &CredentialStore{Path: filepath.Join(t.TempDir(), "c.json")}
	m := startManager(t, Options{Servers: []Server{{Name: "demo", Scope: ScopeUser, Config: cfg}}, Credentials: store})
	if st := m.Status()[0]; st.State != StateNeedsAuth {
		t.Fatalf("status %+v, want needs-auth", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Login(ctx, "demo", LoginOptions{Open: browse}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the server to connect after login", func() bool { return m.Status()[0].State == StateConnected })
	if err := m.Login(ctx, "nope", LoginOptions{}); err == nil || !strings.Contains(err.Error(), `no MCP server named "nope"`) {
		t.Errorf("Login of an unknown server = %v", err)
	}
}

// TestLoginToAnSSEServer: an sse server is asked with its stream's GET,
// and connects with the stored token.
func TestLoginToAnSSEServer(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	cfg := ServerConfig{Type: "sse", URL: oauthtest.NewProtectedServer(t, as, true)}
	store := &CredentialStore{Path: filepath.Join(t.TempDir(), "c.json")}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := Login(ctx, "old", cfg, store, LoginOptions{Open: browse}); err != nil {
		t.Fatal(err)
	}
	m := startManager(t, Options{Servers: []Server{{Name: "old", Scope: ScopeUser, Config: cfg}}, Credentials: store})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("status %+v, want connected", st)
	}
	res, err := callTool(t, findTool(m.Snapshot(), "mcp__old__echo"), `{"text":"sse"}`)
	if err != nil || resultText(res) != "protected: sse" {
		t.Fatalf("echo = %q, %v", resultText(res), err)
	}
}

// TestAuthenticateToolStandsInUntilAuthorized: a server that needs
// authorization offers mcp__<server>__authenticate instead of its tools;
// calling it returns the address to open, and once the user approves the
// server's own tools replace it.
func TestAuthenticateToolStandsInUntilAuthorized(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	cfg := ServerConfig{Type: "http", URL: oauthtest.NewProtectedServer(t, as, false)}
	store := &CredentialStore{Path: filepath.Join(t.TempDir(), "c.json")}
	m := startManager(t, Options{Servers: []Server{{Name: "demo", Scope: ScopeUser, Config: cfg}}, Credentials: store, OpenBrowser: browse})
	auth := findTool(m.Snapshot(), "mcp__demo__authenticate")
	if auth == nil || findTool(m.Snapshot(), "mcp__demo__echo") != nil {
		t.Fatalf("needs-auth snapshot: %v", toolNamesOf(m.Snapshot()))
	}
	res, err := callTool(t, auth, `{}`)
	if err != nil || !strings.Contains(resultText(res), as.URL+"/authorize?") {
		t.Fatalf("authenticate = %q, %v; want the address to open", resultText(res), err)
	}
	eventually(t, 10*time.Second, "the server's own tools", func() bool {
		return findTool(m.Snapshot(), "mcp__demo__echo") != nil && findTool(m.Snapshot(), "mcp__demo__authenticate") == nil
	})
	// Without a credential store there is nothing to authenticate with.
	m2 := startManager(t, Options{Servers: []Server{{Name: "demo", Scope: ScopeUser, Config: ServerConfig{Type: "http", URL: oauthtest.NewProtectedServer(t, oauthtest.NewAuthServer(t), false)}}}})
	if findTool(m2.Snapshot(), "mcp__demo__authenticate") != nil {
		t.Error("authenticate offered without a credential store")
	}
}

func toolNamesOf(s Snapshot) []string {
	var out []string
	for _, t := range s.Tools {
		out = append(out, t.Name())
	}
	return out
}
