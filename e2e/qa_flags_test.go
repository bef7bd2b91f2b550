package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// userPrompt is what the user typed in the first message of a request:
// its text blocks without the <system-reminder> ones reins adds.
func userPrompt(r *llmtest.Request) string {
	var parts []string
	for _, b := range r.Messages[0].Content {
		if b.Type == llm.BlockText && !strings.HasPrefix(b.Text, "<system-reminder>") {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// --allowedTools and --disallowedTools take several rules in several
// arguments, as Claude Code's do (`--disallowedTools "Bash(rm *)" "Read(./.env)"`):
// every one of them applies, and none leaks into the prompt. An argument
// that does not read as a rule (a prompt with spaces) stays the prompt.
func TestQARuleFlagsTakeSeveralArguments(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{name: "prompt first", args: []string{"-p", "check the env", "--disallowedTools", "Bash(rm *)", "Read(./.env)", "--allowedTools", "Bash(touch *)", "Bash(echo *)"}},
		{name: "prompt last", args: []string{"--disallowedTools", "Bash(rm *)", "Read(./.env)", "--allowedTools", "Bash(touch *)", "Bash(echo *)", "-p", "check the env"}},
		{name: "prompt after the rules", args: []string{"-p", "--allowed-tools", "Bash(touch *)", "Bash(echo *)", "--disallowed-tools", "Bash(rm *)", "Read(./.env)", "check the env"}},
		{name: "comma lists and repeated flags", args: []string{"-p", "check the env", "--allowedTools", "Bash(touch *),Bash(echo *)", "--disallowedTools", "Bash(rm *)", "--disallowedTools", "Read(./.env)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t)
			sb := e2etest.NewSandbox(t, srv.URL)
			env := sb.Write(t, ".env", "TOKEN=hunter2\n")
			srv.Add(llmtest.Calls(
				llmtest.ToolUse("toolu_read", "Read", map[string]any{"file_path": env}),
				llmtest.ToolUse("toolu_touch", "Bash", map[string]any{"command": "touch made"}),
				llmtest.ToolUse("toolu_echo", "Bash", map[string]any{"command": "echo said"}),
				llmtest.ToolUse("toolu_rm", "Bash", map[string]any{"command": "rm -f made"})),
				llmtest.Reply("done"))
			r := sb.Run(t, "", tc.args...)
			if r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			reqs := srv.Requests()
			if got := userPrompt(reqs[0]); got != "check the env" {
				t.Errorf("prompt = %q, want %q", got, "check the env")
			}
			res := map[string]llm.ContentBlock{}
			for _, b := range reqs[1].ToolResults() {
				res[b.ToolUseID] = b
			}
			for _, id := range []string{"toolu_touch", "toolu_echo"} {
				if b := res[id]; b.IsError {
					t.Errorf("%s refused: %s", id, b.ResultText())
				}
			}
			for _, id := range []string{"toolu_read", "toolu_rm"} {
				if b := res[id]; !b.IsError || !strings.Contains(b.ResultText(), "deny rule") {
					t.Errorf("%s not denied by its rule: %s", id, b.ResultText())
				}
			}
			if strings.Contains(reqs[1].LastUserText(), "hunter2") {
				t.Errorf("the denied file reached the model")
			}
		})
	}
}

// A system prompt file that cannot be read stops the run with a one-line
// error naming the flag and the file, instead of running with reins's own
// prompt in place of the one the user asked for.
func TestQAUnreadableSystemPromptFileStopsTheRun(t *testing.T) {
	for _, flag := range []string{"--system-prompt-file", "--append-system-prompt-file"} {
		t.Run(flag, func(t *testing.T) {
			srv := server(t)
			sb := e2etest.NewSandbox(t, srv.URL)
			missing := sb.Dir + "/prompts/missing.md"
			r := sb.Run(t, "", "-p", "hi", flag, missing)
			if r.Code != 1 {
				t.Errorf("code %d, want 1", r.Code)
			}
			if !strings.Contains(r.Stderr, flag) || !strings.Contains(r.Stderr, missing) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
				t.Errorf("stderr %q: want one line naming %s and the file", r.Stderr, flag)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("the model was called %d times", n)
			}
		})
	}
	// A readable file is used as the system prompt.
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := sb.Write(t, "prompt.md", "You are PIRATE-BOT.")
	if r := sb.Run(t, "", "-p", "hi", "--system-prompt-file", p); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if sys := srv.Requests()[0].SystemText(); !strings.Contains(sys, "You are PIRATE-BOT.") {
		t.Errorf("system prompt = %q", sys)
	}
}

// Configuration given explicitly on the command line that cannot be used
// stops the run (exit 1, one line naming the flag), as Claude Code does
// for --settings and --mcp-config: a CI script with a quoting mistake must
// not run green without its deny rules, servers or agents.
func TestQABrokenConfigurationFlagsStopTheRun(t *testing.T) {
	cases := []struct {
		name, flag, value, want string
	}{
		{"settings inline JSON", "--settings", `{"permissions": {"deny": ["Bash"]`, "--settings"},
		{"settings file missing", "--settings", "no-such-settings.json", "no-such-settings.json"},
		{"settings file with bad JSON", "--settings", "bad-settings.json", "bad-settings.json:1:"},
		{"mcp-config inline JSON", "--mcp-config", `{"mcpServers": {`, "--mcp-config"},
		{"mcp-config file missing", "--mcp-config", "no-such-mcp.json", "no-such-mcp.json"},
		{"agents JSON", "--agents", `{"reviewer": {"description": "x", "prompt": "y"`, "--agents"},
		{"agents without prompt", "--agents", `{"reviewer": {"description": "reviews"}}`, "prompt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t)
			sb := e2etest.NewSandbox(t, srv.URL)
			sb.Write(t, "bad-settings.json", `{"model": opus}`)
			r := sb.Run(t, "", "-p", "hi", tc.flag, tc.value)
			if r.Code != 1 {
				t.Errorf("code %d, want 1 (stdout %q)", r.Code, r.Stdout)
			}
			if !strings.Contains(r.Stderr, tc.want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
				t.Errorf("stderr %q: want one line mentioning %q", r.Stderr, tc.want)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("the model was called %d times", n)
			}
		})
	}
}

// An empty --setting-sources loads no settings files, as the Agent SDK
// means it when a program passes settingSources: [] to run isolated from
// the user's and the project's settings (it spawns --setting-sources=).
func TestQAEmptySettingSourcesLoadsNoSettingsFiles(t *testing.T) {
	for _, args := range [][]string{{"--setting-sources="}, {"--setting-sources", ""}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			srv := server(t, llmtest.Reply("ok"))
			sb := e2etest.NewSandbox(t, srv.URL)
			sb.Write(t, ".claude/settings.json", `{"model": "sonnet", "permissions": {"deny": ["WebFetch"]}}`)
			r := sb.Run(t, "", append([]string{"-p", "hi", "--output-format", "stream-json", "--verbose"}, args...)...)
			if r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			req := srv.Requests()[0]
			if strings.Contains(req.Model, "sonnet") {
				t.Errorf("model %s: the project's settings were loaded", req.Model)
			}
			found := false
			for _, n := range req.ToolNames() {
				found = found || n == "WebFetch"
			}
			if !found {
				t.Errorf("WebFetch missing from %v: the project's deny rule was applied", req.ToolNames())
			}
		})
	}
}

// A model written with Claude Code's "[1m]" suffix (--model sonnet[1m],
// or "model": "sonnet[1m]" in settings) asks for the long context window:
// the API gets the plain model id and the long-context beta, never the
// suffix (which it would refuse as an unknown model).
func TestQALongContextModelSuffixBecomesTheBeta(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		settings string
	}{
		{name: "flag", args: []string{"--model", "sonnet[1m]"}},
		{name: "settings", settings: `{"model": "claude-sonnet-4-5[1m]"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("ok"))
			sb := e2etest.NewSandbox(t, srv.URL)
			if tc.settings != "" {
				sb.Write(t, ".claude/settings.json", tc.settings)
			}
			r := sb.Run(t, "", append([]string{"-p", "hi"}, tc.args...)...)
			if r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			req := srv.Requests()[0]
			if req.Model != "claude-sonnet-4-5" {
				t.Errorf("model sent = %q, want claude-sonnet-4-5", req.Model)
			}
			if beta := req.Header.Get("anthropic-beta"); !strings.Contains(beta, "context-1m-2025-08-07") {
				t.Errorf("anthropic-beta = %q, want the long-context beta", beta)
			}
		})
	}
	// Without the suffix no long-context beta is sent.
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if beta := srv.Requests()[0].Header.Get("anthropic-beta"); strings.Contains(beta, "context-1m") {
		t.Errorf("anthropic-beta = %q without [1m]", beta)
	}
}

// A base URL that is not an http(s) URL (a host without a scheme is an
// easy mistake) is reported at once, naming the variable, instead of
// being retried for minutes as a connection error.
func TestQABaseURLWithoutSchemeIsRefusedAtOnce(t *testing.T) {
	for _, tc := range []struct{ name, env, settings string }{
		{name: "environment", env: "api.example.com"},
		{name: "settings env", env: "http://127.0.0.1:1", settings: `{"env": {"ANTHROPIC_BASE_URL": "example.com:8080/anthropic"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := e2etest.NewSandbox(t, tc.env)
			sb.Env = append(sb.Env, "REINS_RETRY_BASE_MS=1000")
			if tc.settings != "" {
				sb.Write(t, ".claude/settings.json", tc.settings)
			}
			start := time.Now()
			r := sb.Run(t, "", "-p", "hi")
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s to give up", d)
			}
			if r.Code != 1 || !strings.Contains(r.Stderr, "ANTHROPIC_BASE_URL") || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
				t.Errorf("code %d stderr %q: want one line naming ANTHROPIC_BASE_URL", r.Code, r.Stderr)
			}
		})
	}
}

// --include-hook-events adds hook_started / hook_response lines to
// stream-json output in print mode too, not only under the SDK protocol.
func TestQAHookEventsInPrintModeStreamJSON(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "echo ran"})),
		llmtest.Reply("fin"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}]}}`)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose", "--include-hook-events")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var started, response map[string]any
	var order []string
	for _, l := range decodeLines(t, r.Stdout) {
		order = append(order, l["type"].(string)+"/"+strings.TrimSpace(func() string { s, _ := l["subtype"].(string); return s }()))
		switch l["subtype"] {
		case "hook_started":
			started = l
		case "hook_response":
			response = l
		}
	}
	if started == nil || response == nil {
		t.Fatalf("no hook lines in %v", order)
	}
	if started["hook_event"] != "PreToolUse" || started["hook_id"] == "" || started["hook_id"] != response["hook_id"] {
		t.Errorf("hook_started %v / hook_response %v", started, response)
	}
	if response["outcome"] != "success" || response["stdout"] != "checked\n" || response["exit_code"] != 0.0 {
		t.Errorf("hook_response = %v", response)
	}
	// Without the flag there are none.
	srv2 := server(t, llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "echo ran"})), llmtest.Reply("fin"))
	sb.Env = append(sb.Env, "ANTHROPIC_BASE_URL="+srv2.URL)
	r = sb.Run(t, "", "-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose")
	if strings.Contains(r.Stdout, "hook_started") {
		t.Errorf("hook lines without --include-hook-events")
	}
}

// --json-schema works in print mode (where Claude Code documents it): the
// model gets the StructuredOutput tool, and the result carries what it
// gave as structured_output; a schema that is not valid stops the run.
func TestQAJSONSchemaInPrintMode(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_so", "StructuredOutput", map[string]any{"n": 42})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "count", "--output-format", "json", "--json-schema", schema)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("not one JSON object: %q", r.Stdout)
	}
	if got, _ := json.Marshal(res["structured_output"]); string(got) != `{"n":42}` || res["subtype"] != "success" {
		t.Errorf("structured_output = %s, subtype %v", got, res["subtype"])
	}
	// The call ends the turn, as in Claude Code: no second request, and
	// the result text is the output.
	if n := len(srv.Requests()); n != 1 || res["result"] != `{"n":42}` {
		t.Errorf("%d requests, result %v; want 1 and the output as JSON", n, res["result"])
	}

	// A model that never gives it is reminded, then the run fails.
	turns := []llmtest.Turn{}
	for i := 0; i < 6; i++ {
		turns = append(turns, llmtest.Reply("plain text"))
	}
	srv2 := server(t, turns...)
	sb2 := e2etest.NewSandbox(t, srv2.URL)
	r = sb2.Run(t, "", "-p", "count", "--output-format", "json", "--json-schema", schema)
	if r.Code != 1 || !strings.Contains(r.Stdout, `"error_max_structured_output_retries"`) {
		t.Errorf("code %d stdout %s", r.Code, r.Stdout)
	}
	if n := len(srv2.Requests()); n != 6 {
		t.Errorf("%d requests, want the turn and 5 reminders", n)
	}

	// A schema that is not valid JSON Schema stops the run before any call.
	srv3 := server(t)
	sb3 := e2etest.NewSandbox(t, srv3.URL)
	r = sb3.Run(t, "", "-p", "count", "--json-schema", `{"type": `)
	if r.Code == 0 || !strings.Contains(r.Stderr, "--json-schema") {
		t.Errorf("code %d stderr %q", r.Code, r.Stderr)
	}
}
