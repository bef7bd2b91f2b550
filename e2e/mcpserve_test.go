package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
)

// npmPeer finds an npm package installed under .ci/node_modules; missing
// peers fail under CI and skip otherwise.
func npmPeer(t *testing.T, pkg string) (node, modules string) {
	t.Helper()
	missing := func(what string) {
		msg := what + " is missing; run ./scripts/test.sh (or npm ci --prefix .ci)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	wd, _ := os.Getwd()
	modules = filepath.Join(wd, "..", ".ci", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, pkg)); err != nil {
		missing(pkg)
	}
	return node, modules
}

func TestMCPServeIsUsableFromTheTypeScriptClient(t *testing.T) {
	node, modules := npmPeer(t, "@modelcontextprotocol/sdk")
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	file := sb.Write(t, "notes.txt", "served by reins\n")
	dir := t.TempDir()
	script, _ := os.ReadFile("testdata/mcp_serve_client.mjs")
	os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644)
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), e2etest.Binary(t), file, "mcp", "serve")
	cmd.Dir = sb.Dir
	cmd.Env = sb.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Server struct{ Name string }
		Tools  []string
		Read   struct {
			IsError bool
			Text    string
		}
		Bash struct {
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report %q: %v", out, err)
	}
	if rep.Server.Name != "reins" {
		t.Errorf("server %q", rep.Server.Name)
	}
	for _, want := range []string{"Bash", "Edit", "Glob", "Grep", "Read", "Write"} {
		if !slices.Contains(rep.Tools, want) {
			t.Errorf("tools %v lack %s", rep.Tools, want)
		}
	}
	if rep.Read.IsError || !strings.Contains(rep.Read.Text, "served by reins") {
		t.Errorf("Read = %+v", rep.Read)
	}
	// As in Claude Code, the client confirms each call with its user: a
	// command the rules would ask about runs.
	if rep.Bash.IsError {
		t.Errorf("Bash over MCP: %+v; want it run (the client confirms calls)", rep.Bash)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made-by-mcp")); err != nil {
		t.Errorf("the command did not run: %v", err)
	}
}
