package e2e

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// `--mcp-config a.json b.json '{…}'` loads every configuration, as Claude
// Code's variadic flag does; before, only the first was read and the rest
// became part of the prompt.
func TestQA3MCPConfigTakesSeveralConfigurations(t *testing.T) {
	srv := server(t, llmtest.Reply("three servers"))
	sb := e2etest.NewSandbox(t, srv.URL)
	self := func(name string) string {
		// reins's own server, run through sh so each has a command line
		// of its own (servers running the same command are one server).
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{name: map[string]any{
			"command": "sh", "args": []string{"-c", `exec "$1" mcp serve`, name, e2etest.Binary(t)}}}})
		return string(b)
	}
	a := sb.Write(t, "a.json", self("one"))
	b := sb.Write(t, "b.json", self("two"))
	r := sb.Run(t, "", "-p", "--output-format", "stream-json", "--verbose", "--mcp-config", a, b, self("three"), "list the servers")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	var names []string
	for _, s := range lines[0]["mcp_servers"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"one", "three", "two"}) {
		t.Errorf("init mcp_servers = %v, want one, two and three", names)
	}
	if got := userPrompt(srv.Requests()[0]); got != "list the servers" {
		t.Errorf("prompt = %q, want %q", got, "list the servers")
	}
}

// A --permission-prompt-tool that names no tool once the MCP servers are
// up stops the run before the model is called, naming the flag, the tool
// and the MCP tools there are, as Claude Code does; before, the run went
// on and every tool call that needed asking was denied, while the result
// still said success. A name that is there runs as before.
func TestQA3MissingPermissionPromptToolStopsTheRun(t *testing.T) {
	srv := server(t, llmtest.Reply("ran"))
	sb := e2etest.NewSandbox(t, srv.URL)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"self": map[string]any{
		"command": e2etest.Binary(t), "args": []string{"mcp", "serve"}}}})
	r := sb.Run(t, "", "-p", "touch a file", "--mcp-config", string(cfg), "--permission-prompt-tool", "mcp__self__aprove")
	if r.Code != 1 {
		t.Errorf("code %d, want 1; stdout %q", r.Code, r.Stdout)
	}
	for _, want := range []string{"--permission-prompt-tool", "mcp__self__aprove", "mcp__self__Bash"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q does not name %s", r.Stderr, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the model was called %d times", n)
	}
	r = sb.Run(t, "", "-p", "touch a file", "--mcp-config", string(cfg), "--permission-prompt-tool", "mcp__self__Read")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "ran" {
		t.Errorf("with a tool that is there: code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}

// The result of a slash command answered without the model (/cost, an
// unknown command) has the shape of every other result line: a uuid, the
// usage objects, terminal_reason; before, its uuid was "" and its usage
// had null server_tool_use and cache_creation and an empty service_tier.
func TestQA3LocalCommandResultHasTheResultShape(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, tc := range []struct {
		prompt  string
		code    int
		subtype string
	}{{"/cost", 0, "success"}, {"/nosuchcommand", 1, "error_during_execution"}} {
		r := sb.Run(t, "", "-p", tc.prompt, "--output-format", "json")
		if r.Code != tc.code {
			t.Errorf("%s: code %d, want %d: %s", tc.prompt, r.Code, tc.code, r.Stderr)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
			t.Fatalf("%s: result %q: %v", tc.prompt, r.Stdout, err)
		}
		if res["subtype"] != tc.subtype || res["session_id"] == "" {
			t.Errorf("%s: subtype %v session %v", tc.prompt, res["subtype"], res["session_id"])
		}
		if id, _ := res["uuid"].(string); len(id) != 36 {
			t.Errorf("%s: uuid %q is not a UUID", tc.prompt, res["uuid"])
		}
		if _, ok := res["terminal_reason"].(string); !ok {
			t.Errorf("%s: no terminal_reason", tc.prompt)
		}
		u, _ := res["usage"].(map[string]any)
		if _, ok := u["server_tool_use"].(map[string]any); !ok || u["service_tier"] != "standard" {
			t.Errorf("%s: usage %v", tc.prompt, u)
		}
		if _, ok := u["cache_creation"].(map[string]any); !ok {
			t.Errorf("%s: usage.cache_creation %v", tc.prompt, u["cache_creation"])
		}
	}
}

// With --input-format stream-json the prompts come on stdin; a prompt
// argument given as well is not sent, and reins says so on stderr instead
// of dropping it without a word.
func TestQA3PromptArgumentWithStreamJSONInputIsReported(t *testing.T) {
	srv := server(t, llmtest.Reply("answered"))
	sb := e2etest.NewSandbox(t, srv.URL)
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"from stdin"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "-p", "from the argument", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, `ignoring the prompt argument "from the argument"`) {
		t.Errorf("stderr %q does not report the ignored argument", r.Stderr)
	}
	if got := userPrompt(srv.Requests()[0]); got != "from stdin" {
		t.Errorf("prompt = %q, want the stdin message", got)
	}
}

// --tools takes the sub-agent tool under its older name Task (the name
// Claude Code's own init line lists, and the one rules accept), and says
// which names match no built-in tool instead of dropping them silently.
func TestQA3ToolsFlagTakesTaskAndReportsUnknownNames(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--tools", "Task,Read,LS", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var got []string
	for _, n := range decodeLines(t, r.Stdout)[0]["tools"].([]any) {
		got = append(got, n.(string))
	}
	if !slices.Equal(got, []string{"Agent", "Read"}) {
		t.Errorf("init tools = %v, want [Agent Read]", got)
	}
	if !strings.Contains(r.Stderr, `--tools: there is no built-in tool named "LS"`) || strings.Contains(r.Stderr, `"Task"`) {
		t.Errorf("stderr %q: want a warning about LS only", r.Stderr)
	}
	if names := srv.Requests()[0].ToolNames(); !slices.Contains(names, "Agent") {
		t.Errorf("the request's tools %v lack Agent", names)
	}
}

// num_turns counts what Claude Code's counts: the prompt and each tool
// result, so two parallel reads count two (spec/captures/print-json.json:
// parallel Reads, then Bash, then the answer is num_turns 4), in json and
// stream-json output alike. --max-turns still bounds model responses.
func TestQA3NumTurnsCountsThePromptAndEachToolResult(t *testing.T) {
	for _, format := range []string{"json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			srv := server(t)
			sb := e2etest.NewSandbox(t, srv.URL)
			a := sb.Write(t, "request.go", "package x\n")
			b := sb.Write(t, "client.go", "package x\n")
			srv.Add(
				llmtest.Calls(llmtest.ToolUse("toolu_000_0", "Read", map[string]any{"file_path": a}),
					llmtest.ToolUse("toolu_000_1", "Read", map[string]any{"file_path": b})),
				llmtest.Calls(llmtest.ToolUse("toolu_001_0", "Bash", map[string]any{"command": "touch count.txt", "description": "count"})),
				llmtest.Reply("Counted."))
			r := sb.Run(t, "", "-p", "count", "--output-format", format, "--verbose=false", "--allowedTools", "Bash(touch *)", "--max-turns", "3")
			if r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			lines := decodeLines(t, r.Stdout)
			res := lines[len(lines)-1]
			if res["subtype"] != "success" || res["num_turns"] != 4.0 {
				t.Errorf("result subtype %v num_turns %v, want success and 4", res["subtype"], res["num_turns"])
			}
		})
	}
}

// Each assistant line of stream-json has a uuid of its own, as Claude
// Code's do, also when one model message has several blocks (before, every
// block line of a message repeated its uuid, so a client keying messages
// by uuid lost all but one); the first is the uuid the message is recorded
// under, and --resume-session-at takes any of them.
func TestQA3EachAssistantBlockLineHasItsOwnUUID(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("Part one."), llmtest.Text("Part two.")}},
		llmtest.Reply("answer two"), llmtest.Reply("answer three"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "question one", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	var uuids []string
	var id string
	for _, l := range decodeLines(t, r.Stdout) {
		if l["type"] == "assistant" {
			uuids = append(uuids, l["uuid"].(string))
			id = l["session_id"].(string)
		}
	}
	if len(uuids) != 2 || uuids[0] == uuids[1] || len(uuids[1]) != 36 {
		t.Fatalf("assistant line uuids %q, want two different UUIDs", uuids)
	}
	transcript, err := os.ReadFile(sb.Transcripts(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(transcript), `"uuid":"`+uuids[0]+`"`) {
		t.Errorf("the first block's uuid %s is not the recorded message's", uuids[0])
	}
	for i, at := range uuids {
		r := sb.Run(t, "", "-p", "question again", "--resume", id, "--resume-session-at", at)
		if r.Code != 0 {
			t.Fatalf("resume at block %d's uuid: code %d: %s", i, r.Code, r.Stderr)
		}
	}
	reqs := srv.Requests()
	for _, req := range reqs[1:] {
		var got []string
		for _, m := range historyTexts(req) {
			got = append(got, withoutReminders(m))
		}
		if want := "question one|Part one.Part two.|question again"; strings.Join(got, "|") != want {
			t.Errorf("resumed request carried %q, want %q", got, want)
		}
	}
}

// --permission-prompt-tool stdio in print mode, where no client answers
// on stdin, is warned about: every tool call that needs permission will
// be denied.
func TestQA3StdioPromptToolInPrintModeIsWarnedAbout(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--permission-prompt-tool", "stdio")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "ok" {
		t.Fatalf("code %d stdout %q: %s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "--permission-prompt-tool stdio") || !strings.Contains(r.Stderr, "--input-format stream-json") {
		t.Errorf("stderr %q: want a warning that stdio needs --input-format stream-json", r.Stderr)
	}
}
