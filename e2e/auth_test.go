package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// authStatusOf runs reins auth status in sb and decodes its JSON.
func authStatusOf(t *testing.T, sb *e2etest.Sandbox) (map[string]any, int) {
	t.Helper()
	r := sb.Run(t, "", "auth", "status")
	var st map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &st); err != nil {
		t.Fatalf("auth status printed %q (stderr %q): %v", r.Stdout, r.Stderr, err)
	}
	return st, r.Code
}

// reins auth status says where a session's credentials would come from,
// as JSON, and exits 1 when there are none, as claude auth status does;
// it never calls the model.
func TestAuthStatusReportsTheKeySource(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	st, code := authStatusOf(t, sb)
	if code != 0 || st["loggedIn"] != true || st["apiKeySource"] != "ANTHROPIC_API_KEY" {
		t.Errorf("with ANTHROPIC_API_KEY: code %d, %v", code, st)
	}

	sb.Env = append(sb.Env, "ANTHROPIC_API_KEY=")
	st, code = authStatusOf(t, sb)
	if code != 1 || st["loggedIn"] != false || st["authMethod"] != "none" {
		t.Errorf("without a key: code %d, %v; want exit 1 and loggedIn false", code, st)
	}

	writeFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"apiKeyHelper":"echo k"}`)
	st, code = authStatusOf(t, sb)
	if code != 0 || st["authMethod"] != "api_key_helper" || !strings.HasSuffix(st["apiKeyHelper"].(string), "settings.json") {
		t.Errorf("with a user apiKeyHelper: code %d, %v", code, st)
	}
}

// reins has no account login: auth login says how to give it a key.
func TestAuthLoginExplainsKeys(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	r := sb.Run(t, "", "auth", "login")
	if r.Code == 0 || !strings.Contains(r.Stderr, "ANTHROPIC_API_KEY") {
		t.Errorf("auth login: code %d, stderr %q; want a failure naming ANTHROPIC_API_KEY", r.Code, r.Stderr)
	}
}
