package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// CredentialStore keeps the OAuth tokens that `reins mcp login` obtained
// for remote servers, with what refreshing them needs (the client the
// authorization server registered and its token endpoint), in one JSON
// file readable by the user only. Entries are keyed by server name and
// URL, so a server moved to another address asks again. Safe for
// concurrent use within a process.
type CredentialStore struct {
	Path string

	mu sync.Mutex
}

// credential is one stored entry.
type credential struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenURL     string    `json:"token_url"`
	AuthStyle    int       `json:"auth_style,omitempty"`
}

func credentialKey(name, url string) string { return name + " " + url }

func (s *CredentialStore) readLocked() (map[string]credential, error) {
	m := map[string]credential{}
	b, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read MCP credentials: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read MCP credentials %s: %w", s.Path, err)
	}
	return m, nil
}

func (s *CredentialStore) writeLocked(m map[string]credential) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("save MCP credentials: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".mcp-credentials-*")
	if err != nil {
		return fmt.Errorf("save MCP credentials: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save MCP credentials: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save MCP credentials: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		return fmt.Errorf("save MCP credentials: %w", err)
	}
	return nil
}

func (s *CredentialStore) get(name, url string) (credential, bool) {
	if s == nil {
		return credential{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readLocked()
	if err != nil {
		return credential{}, false
	}
	c, ok := m[credentialKey(name, url)]
	return c, ok && c.AccessToken != ""
}

func (s *CredentialStore) put(name, url string, c credential) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readLocked()
	if err != nil {
		return err
	}
	m[credentialKey(name, url)] = c
	return s.writeLocked(m)
}

// SetClientSecret keeps the secret of server name's pre-registered OAuth
// client (at url) for its logins, in place of any tokens kept for it.
func (s *CredentialStore) SetClientSecret(name, url, secret string) error {
	return s.put(name, url, credential{ClientSecret: secret})
}

// clientSecret is the kept secret of server name's pre-registered
// client, "" when there is none.
func (s *CredentialStore) clientSecret(name, url string) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readLocked()
	if err != nil {
		return ""
	}
	return m[credentialKey(name, url)].ClientSecret
}

// Remove forgets the tokens of server name at url, reporting whether
// there were any.
func (s *CredentialStore) Remove(name, url string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.readLocked()
	if err != nil {
		return false, err
	}
	k := credentialKey(name, url)
	if _, ok := m[k]; !ok {
		return false, nil
	}
	delete(m, k)
	return true, s.writeLocked(m)
}

// tokenSource returns the stored tokens of server name at url as a source
// that refreshes them when they expire and saves what it refreshed; ok is
// false when nothing is stored.
func (s *CredentialStore) tokenSource(name, url string) (ts oauth2.TokenSource, ok bool) {
	c, ok := s.get(name, url)
	if !ok {
		return nil, false
	}
	cfg := &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: c.TokenURL, AuthStyle: oauth2.AuthStyle(c.AuthStyle)}}
	tok := &oauth2.Token{AccessToken: c.AccessToken, TokenType: c.TokenType, RefreshToken: c.RefreshToken, Expiry: c.Expiry}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, &http.Client{Timeout: 30 * time.Second})
	return &savingSource{src: oauth2.ReuseTokenSource(tok, cfg.TokenSource(ctx, tok)), last: c.AccessToken,
		save: func(t *oauth2.Token) {
			n := c
			n.AccessToken, n.TokenType, n.Expiry = t.AccessToken, t.TokenType, t.Expiry
			if t.RefreshToken != "" {
				n.RefreshToken = t.RefreshToken
			}
			s.put(name, url, n)
		}}, true
}

// savingSource saves each new token its source hands out.
type savingSource struct {
	src  oauth2.TokenSource
	save func(*oauth2.Token)

	mu   sync.Mutex
	last string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.src.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	fresh := t.AccessToken != s.last
	s.last = t.AccessToken
	s.mu.Unlock()
	if fresh {
		s.save(t)
	}
	return t, nil
}

// LoginOptions configures Login.
type LoginOptions struct {
	// Out receives the authorization address and progress.
	Out io.Writer
	// Open shows the authorization address to the user, usually in a
	// browser (see BrowserOpener); nil only prints it.
	Open func(url string) error
	// Address, when set, receives the authorization address as soon as
	// it is known (a front end that shows it its own way).
	Address func(url string)
	// Timeout bounds the wait for the user (0: five minutes).
	Timeout time.Duration
}

// Login runs the OAuth authorization code flow (with PKCE and dynamic
// client registration, as the MCP authorization spec has it) for the
// remote server name, and stores the tokens: the server's 401 names its
// authorization server, the user approves in a browser, and the answer
// comes back to a one-time listener on the loopback address.
func Login(ctx context.Context, name string, cfg ServerConfig, store *CredentialStore, o LoginOptions) error {
	if t := cfg.Transport(); t != TransportHTTP && t != TransportSSE {
		return fmt.Errorf("%s is a %s server; only http and sse servers use OAuth", name, t)
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()

	// The answer comes to http://localhost:PORT/callback, the form
	// authorization servers accept for native apps; a browser may resolve
	// localhost to either loopback address, so both listen when they can.
	// A pre-registered client's redirect URI names its port.
	fixedPort := 0
	if cfg.OAuth != nil {
		fixedPort = cfg.OAuth.CallbackPort
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", fixedPort))
	if err != nil {
		return fmt.Errorf("listen for the authorization answer: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	redirect := fmt.Sprintf("http://localhost:%d/callback", port)
	answers := make(chan *auth.AuthorizationResult, 1)
	failures := make(chan error, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if e := q.Get("error"); e != "" {
			msg := e
			if d := q.Get("error_description"); d != "" {
				msg += ": " + d
			}
			fmt.Fprintf(w, "<p>reins was not authorized for %s: %s. You can close this tab.</p>", html.EscapeString(name), html.EscapeString(msg))
			select {
			case failures <- fmt.Errorf("the authorization server refused: %s", msg):
			default:
			}
			return
		}
		fmt.Fprintf(w, "<p>reins is authorized for %s. You can close this tab.</p>", html.EscapeString(name))
		select {
		case answers <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
		default:
		}
	})}
	go srv.Serve(ln)
	if ln6, err := net.Listen("tcp", fmt.Sprintf("[::1]:%d", port)); err == nil {
		go srv.Serve(ln6)
	}
	defer func() {
		// Shutdown, not Close: the browser's request that brought the
		// answer may still be finishing its page, which Close would cut
		// off (the browser would show a failed connection).
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer scancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()

	// The server's configured headers go to the server only, never to
	// its authorization server.
	probe := &http.Client{Transport: &headerTransport{base: http.DefaultTransport, headers: cfg.Headers}, Timeout: 30 * time.Second}
	hc := &http.Client{Timeout: 30 * time.Second}
	var got struct {
		cfg *oauth2.Config
		tok *oauth2.Token
	}
	hcfg := &auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "reins", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
		RedirectURL:         redirect,
		RequestRefreshToken: true,
		Client:              hc,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			fmt.Fprintf(o.Out, "Open this address to authorize reins for %s:\n\n  %s\n\nWaiting for the answer…\n", name, args.URL)
			if o.Address != nil {
				o.Address(args.URL)
			}
			if o.Open != nil {
				if err := o.Open(args.URL); err != nil {
					fmt.Fprintf(o.Out, "(could not open a browser: %v)\n", err)
				}
			}
			select {
			case a := <-answers:
				return a, nil
			case err := <-failures:
				return nil, err
			case <-ctx.Done():
				return nil, fmt.Errorf("no answer from the browser: %w", context.Cause(ctx))
			}
		},
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			got.cfg, got.tok = c, t
			return c.TokenSource(ctx, t), nil
		},
	}
	if cfg.OAuth != nil && cfg.OAuth.ClientID != "" {
		// A client registered in advance (servers that do not register
		// clients themselves): no registration, its id, and its secret
		// when `reins mcp add --client-secret` kept one.
		pc := &oauthex.ClientCredentials{ClientID: cfg.OAuth.ClientID}
		if secret := store.clientSecret(name, cfg.URL); secret != "" {
			pc.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: secret}
		}
		hcfg.PreregisteredClient, hcfg.DynamicClientRegistrationConfig = pc, nil
	}
	h, err := auth.NewAuthorizationCodeHandler(hcfg)
	if err != nil {
		return fmt.Errorf("log in to %s: %w", name, err)
	}
	// The request a connection starts with (an initialize POST, or the
	// event stream's GET for an sse server), answered 401 with the
	// server's challenge, starts the flow.
	var req *http.Request
	if cfg.Transport() == TransportSSE {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, cfg.URL, nil)
		if err == nil {
			req.Header.Set("Accept", "text/event-stream")
		}
	} else {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"reins","version":"login"}}}`)
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
	}
	if err != nil {
		return fmt.Errorf("log in to %s: %w", name, err)
	}
	resp, err := probe.Do(req)
	if err != nil {
		return fmt.Errorf("log in to %s: %w", name, err)
	}
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		resp.Body.Close()
		return fmt.Errorf("%s did not ask for authorization (it answered HTTP %d); there is nothing to log in to", name, resp.StatusCode)
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		return fmt.Errorf("log in to %s: %w", name, err)
	}
	if got.cfg == nil || got.tok == nil || got.tok.AccessToken == "" {
		return fmt.Errorf("log in to %s: the authorization server gave no access token", name)
	}
	c := credential{AccessToken: got.tok.AccessToken, TokenType: got.tok.TokenType, RefreshToken: got.tok.RefreshToken,
		Expiry: got.tok.Expiry, ClientID: got.cfg.ClientID, ClientSecret: got.cfg.ClientSecret,
		TokenURL: got.cfg.Endpoint.TokenURL, AuthStyle: int(got.cfg.Endpoint.AuthStyle)}
	if err := store.put(name, cfg.URL, c); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "Logged in to %s.\n", name)
	return nil
}

// BrowserOpener returns the function that opens an address in the
// user's browser: $BROWSER when set, else the system's opener.
func BrowserOpener(getenv func(string) string) func(url string) error {
	return func(url string) error {
		name := getenv("BROWSER")
		switch {
		case name != "":
		case runtime.GOOS == "darwin":
			name = "open"
		case runtime.GOOS == "windows":
			return exec.Command("rundll32", "url.dll,FileProtocolHandler", url).Start()
		default:
			name = "xdg-open"
		}
		cmd := exec.Command(name, url)
		if err := cmd.Start(); err != nil {
			return err
		}
		go cmd.Wait()
		return nil
	}
}
