package mcp

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"reins/internal/mcp/oauthtest"
)

// freePort is a loopback port nobody listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// A remote server whose authorization server does not register clients
// takes one registered in advance, as Claude Code's `mcp add --client-id
// --client-secret --callback-port` and "oauth" block give it: login uses
// that client id (no registration) and answers on the registered
// callback port, and the session then connects with the tokens.
func TestLoginWithAPreregisteredClient(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	url := oauthtest.NewProtectedServer(t, as, false)
	port := freePort(t)
	cfgDir, proj := t.TempDir(), t.TempDir()
	env := map[string]string{"MCP_CLIENT_SECRET": "s3cret"}
	cmd := NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: func(k string) string { return env[k] }})
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"add", "--transport", "http", "--client-id", oauthtest.ClientID, "--client-secret", "--callback-port", fmt.Sprint(port), "demo", url})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("add: %v\n%s", err, out.String())
	}
	cfg, err := Load(LoadOptions{Cwd: proj, ConfigDir: cfgDir, Home: t.TempDir()})
	s, ok := cfg.Get("demo")
	if err != nil || !ok || s.Config.OAuth == nil || s.Config.OAuth.ClientID != oauthtest.ClientID || s.Config.OAuth.CallbackPort != port {
		t.Fatalf("stored entry %+v (%v); want the oauth block", s.Config, err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, ".mcp.json")); bytes.Contains(b, []byte("s3cret")) {
		t.Error("the client secret was written to the configuration")
	}
	store := Credentials(cfgDir)
	if got := store.clientSecret("demo", url); got != "s3cret" {
		t.Errorf("kept secret %q", got)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := Login(ctx, "demo", s.Config, store, LoginOptions{Open: browse}); err != nil {
		t.Fatalf("login: %v", err)
	}
	if n := as.Registrations(); n != 0 {
		t.Errorf("%d dynamic registrations; want the pre-registered client used", n)
	}
	if want := fmt.Sprintf("http://localhost:%d/callback", port); as.RedirectURI() != want {
		t.Errorf("redirect_uri %q; want %q", as.RedirectURI(), want)
	}
	m := startManager(t, Options{Servers: []Server{s}, Credentials: store})
	if st := m.Status()[0]; st.State != StateConnected {
		t.Fatalf("status %+v; want connected with the tokens", st)
	}

	cmd = NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: func(string) string { return "" }})
	out.Reset()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"get", "demo"})
	if err := cmd.ExecuteContext(context.Background()); err != nil || !bytes.Contains(out.Bytes(), []byte(fmt.Sprintf("  OAuth: client_id configured, callback_port %d\n", port))) {
		t.Errorf("get: %v\n%s", err, out.String())
	}

	// add-json takes Claude Code's oauth block, fields reins does not use
	// included.
	cmd = NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir, Getenv: func(string) string { return "" }})
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"add-json", "other", `{"type":"http","url":"https://x.example/mcp","oauth":{"clientId":"abc","callbackPort":8080,"authServerMetadataUrl":"https://x.example/meta"}}`})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("add-json with an oauth block: %v\n%s", err, out.String())
	}
}

// add-from-claude-desktop imports Claude Desktop's servers (here from the
// Linux builds' ~/.config/Claude): all of them, or the names given; a
// name the scope already has gets a number, as in Claude Code.
func TestAddFromClaudeDesktop(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("Claude Desktop's configuration is elsewhere on this system")
	}
	home, cfgDir, proj := t.TempDir(), t.TempDir(), t.TempDir()
	desktop := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	os.MkdirAll(filepath.Dir(desktop), 0o755)
	os.WriteFile(desktop, []byte(`{"mcpServers":{"files":{"command":"npx","args":["-y","server-filesystem","/tmp"]},"web":{"type":"http","url":"https://e.example/mcp"}},"globalShortcut":"x"}`), 0o644)
	run := func(args ...string) (string, error) {
		cmd := NewCommand(CommandOptions{Cwd: proj, ConfigDir: cfgDir, Home: home, Getenv: func(string) string { return "" }})
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}
	if out, err := run("add-from-claude-desktop"); err != nil || !strings.Contains(out, "Imported 2 MCP server(s) from Claude Desktop to local config: files, web") {
		t.Fatalf("import all: %v\n%s", err, out)
	}
	if out, err := run("add-from-claude-desktop", "files"); err != nil || !strings.Contains(out, "config: files_1") {
		t.Errorf("import again: %v\n%s", err, out)
	}
	if _, err := run("add-from-claude-desktop", "nope"); err == nil || !strings.Contains(err.Error(), `no MCP server named "nope" (it has files, web)`) {
		t.Errorf("unknown name: %v", err)
	}
	cfg, err := Load(LoadOptions{Cwd: proj, ConfigDir: cfgDir, Home: t.TempDir()})
	if s, ok := cfg.Get("web"); err != nil || !ok || s.Config.URL != "https://e.example/mcp" || s.Scope != ScopeLocal {
		t.Errorf("web = %+v, %v", s, err)
	}
	if b, _ := os.ReadFile(filepath.Join(cfgDir, "mcp.json")); !strings.Contains(string(b), `"files_1"`) {
		t.Errorf("the local config lacks files_1:\n%s", b)
	}
}
