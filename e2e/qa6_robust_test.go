package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// frontOf starts a server in front of the fake model: the first model
// request gets page (a proxy's answer), the others go to the fake.
func frontOf(t *testing.T, fake *llmtest.Server, page func(w http.ResponseWriter)) *httptest.Server {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && n.Add(1) == 1 {
			io.Copy(io.Discard, r.Body)
			page(w)
			return
		}
		req, err := http.NewRequestWithContext(r.Context(), r.Method, fake.URL+r.URL.String(), r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A proxy or captive portal that answers the model request with its own
// HTML page (status 200) ends the run at once with the page's title and
// the address, instead of ten retries that each said "stream ended
// before message_stop". The prompt is recorded, so -c goes on once the
// address is right.
func TestPrintModeProxyPageInsteadOfStreamEndsClearlyAndResumes(t *testing.T) {
	fake := server(t, llmtest.Reply("back on track"))
	front := frontOf(t, fake, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Sign in to the office network</title></head><body>...</body></html>")
	})
	sb := e2etest.NewSandbox(t, front.URL)
	r := sb.Run(t, "", "-p", "FIRST-PROMPT", "--output-format", "json")
	if r.Code != 1 {
		t.Fatalf("code %d, want 1; stderr %q", r.Code, r.Stderr)
	}
	for _, want := range []string{"Sign in to the office network", front.URL + "/v1/messages", "not an event stream", "ANTHROPIC_BASE_URL"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q does not contain %q", r.Stderr, want)
		}
	}
	res := decodeLines(t, r.Stdout)
	if len(res) != 1 || res[0]["is_error"] != true || !strings.Contains(fmt.Sprint(res[0]["errors"]), "Sign in to the office network") {
		t.Errorf("result = %v", res)
	}
	if strings.Contains(r.Stdout+r.Stderr, "retry") {
		t.Errorf("the page was asked for again: %s", r.Stderr)
	}
	r = sb.Run(t, "", "-c", "-p", "SECOND-PROMPT")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "back on track" {
		t.Fatalf("resume: code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "FIRST-PROMPT") || !strings.Contains(string(reqs[0].Body), "SECOND-PROMPT") {
		t.Errorf("the resumed request does not carry both prompts: %d requests", len(reqs))
	}
}

// A 404 whose text names nothing ("Not Found") says which model was asked
// for and where, as Claude Code names the model it could not use.
func TestPrintModeNotFoundNamesTheModel(t *testing.T) {
	fake := server(t)
	front := frontOf(t, fake, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}`)
	})
	sb := e2etest.NewSandbox(t, front.URL)
	r := sb.Run(t, "", "-p", "hi", "--model", "claude-no-such-model", "--output-format", "stream-json", "--verbose")
	if r.Code != 1 {
		t.Fatalf("code %d, want 1; stderr %q", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	last := lines[len(lines)-1]
	if last["type"] != "result" || last["api_error_status"] != float64(404) || !strings.Contains(fmt.Sprint(last["errors"]), `"claude-no-such-model"`) {
		t.Errorf("result line = %v", last)
	}
	if !strings.Contains(r.Stderr, `model "claude-no-such-model" at `+front.URL) {
		t.Errorf("stderr %q does not name the model and address", r.Stderr)
	}
}

// In print mode, a command, skill or agent file that cannot be read as
// written is reported on stderr with its path and line (before, only
// /doctor in the terminal UI knew, and the command was just missing); a
// command with broken frontmatter still runs when typed, as in Claude
// Code; a README without frontmatter in the agents folder is not
// reported.
func TestPrintModeReportsBrokenCommandAndAgentFilesAndStillRunsTheCommand(t *testing.T) {
	srv := server(t, llmtest.Turn{Match: func(r *llmtest.Request) bool {
		return strings.Contains(r.LastUserText(), "Review notes.txt carefully.")
	}, Blocks: []llmtest.Block{llmtest.Text("reviewed")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	cmd := sb.Write(t, ".claude/commands/review.md", "---\nargument-hint: [file\n---\nReview $ARGUMENTS carefully.\n")
	agentFile := sb.Write(t, ".claude/agents/helper.md", "---\nname: [helper\ndescription: helps\n---\nHelp.\n")
	sb.Write(t, ".claude/agents/README.md", "# Our agents\n")
	r := sb.Run(t, "", "-p", "/review notes.txt")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "reviewed" {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		"reins: warning: load " + cmd + ": line 2: invalid YAML in frontmatter",
		"the frontmatter is ignored, and only typing /review runs it",
		"reins: warning: load agent " + agentFile + ": line 2: invalid YAML in frontmatter",
		"; the agent is left out",
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "README.md") {
		t.Errorf("the agents folder's README is reported:\n%s", r.Stderr)
	}
}

// A server still connecting when print mode's start-up wait ends is
// named once on stderr: the model works without its tools, and before,
// nothing told a text-mode user why they were missing. An MCP_TIMEOUT
// that is no number of milliseconds is named too.
func TestPrintModeNamesAnMCPServerStillConnectingAfterTheWait(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "MCP_STARTUP_WAIT_MS=300", "MCP_TIMEOUT=30s")
	r := sb.Run(t, "", "-p", "hi", "--mcp-config", `{"mcpServers":{"slow":{"command":"sh","args":["-c","sleep 60"]}}}`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	want := `reins: warning: MCP server "slow" is still connecting after the start-up wait (MCP_STARTUP_WAIT_MS); the model works without its tools until it connects`
	if strings.Count(r.Stderr, want) != 1 {
		t.Errorf("stderr should name the server once:\n%s", r.Stderr)
	}
	// A timeout written with a unit is not milliseconds: said, not ignored
	// silently.
	if !strings.Contains(r.Stderr, `reins: warning: MCP_TIMEOUT="30s" is not a positive number of milliseconds; it is ignored`) {
		t.Errorf("stderr lacks the MCP_TIMEOUT warning:\n%s", r.Stderr)
	}
}
