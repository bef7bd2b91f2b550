package e2e

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
	"reins/internal/mcp/oauthtest"
)

// A remote MCP server behind OAuth: it needs authentication until `reins
// mcp login` runs the browser flow; then print runs use its tools with
// the stored token, and `reins mcp logout` forgets it.
func TestMCPLoginThenUseTheServerThenLogout(t *testing.T) {
	as := oauthtest.NewAuthServer(t)
	mcpURL := oauthtest.NewProtectedServer(t, as, false)
	srv := server(t,
		// MCP tools are deferred: the model runs them through ExecuteExtraTool.
		llmtest.Calls(llmtest.ToolUse("toolu_1", "ExecuteExtraTool", map[string]any{"tool_name": "mcp__demo__echo", "input": map[string]any{"text": "hi"}})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "mcp", "add", "--transport", "http", "--scope", "user", "demo", mcpURL); r.Code != 0 {
		t.Fatalf("mcp add: %d %s", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "mcp", "list"); !strings.Contains(r.Stdout, "! Needs authentication (reins mcp login demo)") {
		t.Fatalf("before login, mcp list:\n%s%s", r.Stdout, r.Stderr)
	}

	// Log in. The test is the browser: it follows the address reins
	// prints, which the authorization server approves at once.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "mcp", "login", "demo")
	cmd.Env = append(cmd.Env, "BROWSER=reins-test-no-such-browser")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		if u := strings.TrimSpace(line); strings.HasPrefix(u, as.URL+"/authorize?") {
			resp, err := http.Get(u)
			if err != nil {
				t.Fatalf("browser: %v", err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "Logged in to demo.") {
		t.Fatalf("mcp login: %v\n%s", err, out.String())
	}

	if r := sb.Run(t, "", "mcp", "list"); !strings.Contains(r.Stdout, "✔ Connected") {
		t.Fatalf("after login, mcp list:\n%s%s", r.Stdout, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "echo hi through demo", "--allowedTools", "mcp__demo__echo")
	if r.Code != 0 || r.Stdout != "done\n" {
		t.Fatalf("print run: %d %q %s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if res := reqs[len(reqs)-1].ToolResults(); len(res) != 1 || !strings.Contains(res[0].ResultText(), "protected: hi") || res[0].IsError {
		t.Errorf("tool result = %+v, want the protected server's answer", res)
	}

	if r := sb.Run(t, "", "mcp", "logout", "demo"); r.Code != 0 || !strings.Contains(r.Stdout, "Logged out of demo.") {
		t.Fatalf("mcp logout: %d %q %s", r.Code, r.Stdout, r.Stderr)
	}
	if r := sb.Run(t, "", "mcp", "list"); !strings.Contains(r.Stdout, "Needs authentication") {
		t.Errorf("after logout, mcp list:\n%s", r.Stdout)
	}
}
