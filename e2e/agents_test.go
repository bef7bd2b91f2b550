package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// subagentMarker is in every sub-agent's system prompt (the notes all
// sub-agents get), never in the main conversation's.
const subagentMarker = "Working as a sub-agent:"

// isSubagent matches a sub-agent's request whose task contains marker.
func isSubagent(marker string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		return strings.Contains(r.SystemText(), subagentMarker) && firstUserText(r, marker)
	}
}

// isMain matches a main-conversation request whose last user message
// contains text.
func isMain(text string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		return !strings.Contains(r.SystemText(), subagentMarker) && strings.Contains(r.LastUserText(), text)
	}
}

// answers matches a sub-agent's request carrying the result of the call
// with id.
func answers(marker, id string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		res := r.ToolResults()
		return isSubagent(marker)(r) && len(res) == 1 && res[0].ToolUseID == id
	}
}

// firstUserText reports whether a user message that is not a tool result
// holds text (the sub-agent's task stays in its first real message).
func firstUserText(r *llmtest.Request, text string) bool {
	for _, m := range r.Messages {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, b := range m.Content {
			if b.Type == llm.BlockText && strings.Contains(b.Text, text) {
				return true
			}
		}
	}
	return false
}

func requestsMatching(srv *llmtest.Server, f func(*llmtest.Request) bool) []*llmtest.Request {
	var out []*llmtest.Request
	for _, r := range srv.Requests() {
		if f(r) {
			out = append(out, r)
		}
	}
	return out
}

func agentCall(id, desc, prompt, typ string, extra map[string]any) llmtest.Block {
	in := map[string]any{"description": desc, "prompt": prompt}
	if typ != "" {
		in["subagent_type"] = typ
	}
	for k, v := range extra {
		in[k] = v
	}
	return llmtest.ToolUse(id, "Agent", in)
}

func TestTwoSubagentsRunInParallelAndReturnInCallOrder(t *testing.T) {
	// Each sub-agent answers slowly (about 1.5 s); run one after the other
	// they would arrive at least that far apart.
	slow := llmtest.Duration(250 * time.Millisecond)
	srv := server(t,
		llmtest.Turn{Match: isMain("split the survey"), Blocks: []llmtest.Block{
			llmtest.Text("Starting two agents."),
			agentCall("toolu_alpha", "survey alpha", "TASK-ALPHA: list the alpha modules", "general-purpose", nil),
			agentCall("toolu_beta", "survey beta", "TASK-BETA: list the beta modules", "Explore", nil),
		}},
		llmtest.Turn{Match: isSubagent("TASK-ALPHA"), Delay: slow, Blocks: []llmtest.Block{llmtest.Text("alpha has 3 modules")}},
		llmtest.Turn{Match: isSubagent("TASK-BETA"), Delay: slow, Blocks: []llmtest.Block{llmtest.Text("beta has 5 modules")}},
		llmtest.Turn{Match: isMain("alpha has 3 modules"), Blocks: []llmtest.Block{llmtest.Text("Alpha 3, beta 5.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "split the survey", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	alpha := requestsMatching(srv, isSubagent("TASK-ALPHA"))
	beta := requestsMatching(srv, isSubagent("TASK-BETA"))
	if len(alpha) != 1 || len(beta) != 1 {
		t.Fatalf("sub-agent requests: alpha %d, beta %d", len(alpha), len(beta))
	}
	if gap := alpha[0].Arrived.Sub(beta[0].Arrived).Abs(); gap > time.Second {
		t.Errorf("the sub-agents' requests arrived %v apart: they did not run in parallel", gap)
	}
	// Explore runs the fast model; general-purpose inherits the parent's.
	main := requestsMatching(srv, isMain("split the survey"))[0]
	if alpha[0].Model != main.Model || beta[0].Model == main.Model || !strings.Contains(beta[0].Model, "haiku") {
		t.Errorf("models: main %s, general-purpose %s, Explore %s", main.Model, alpha[0].Model, beta[0].Model)
	}
	if slices.Contains(beta[0].ToolNames(), "Write") || slices.Contains(alpha[0].ToolNames(), "Agent") {
		t.Errorf("tools: Explore %v, general-purpose %v", beta[0].ToolNames(), alpha[0].ToolNames())
	}
	final := requestsMatching(srv, isMain("alpha has 3 modules"))
	if len(final) != 1 {
		t.Fatalf("final parent requests: %d", len(final))
	}
	res := final[0].ToolResults()
	if len(res) != 2 || res[0].ToolUseID != "toolu_alpha" || res[1].ToolUseID != "toolu_beta" ||
		!strings.HasPrefix(res[0].ResultText(), "alpha has 3 modules") || !strings.HasPrefix(res[1].ResultText(), "beta has 5 modules") {
		t.Fatalf("tool results: %+v", res)
	}
	if !strings.Contains(res[0].ResultText(), "<usage>total_tokens:") {
		t.Errorf("the report lacks its usage: %q", res[0].ResultText())
	}

	// Sub-agent messages reach the output tagged with their Agent call;
	// the Agent results carry Claude Code's fields.
	tagged := map[string]string{}
	var resultIDs []string
	for _, l := range decodeLines(t, r.Stdout) {
		p, _ := l["parent_tool_use_id"].(string)
		if l["type"] == "assistant" && p != "" {
			tagged[p] += textOf(l)
		}
		if l["type"] == "user" && p == "" {
			blk := l["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
			id := blk["tool_use_id"].(string)
			resultIDs = append(resultIDs, id)
			tur := l["tool_use_result"].(map[string]any)
			if tur["status"] != "completed" || tur["agentId"] == "" || tur["totalToolUseCount"] != 0.0 || tur["prompt"] == "" {
				t.Errorf("tool_use_result of %s = %v", id, tur)
			}
		}
		if l["type"] == "result" {
			if l["result"] != "Alpha 3, beta 5." {
				t.Errorf("result line: %v", l)
			}
			// The session's account includes its sub-agents: Explore's
			// fast model shows up beside the main one.
			mu, _ := l["modelUsage"].(map[string]any)
			if len(mu) != 2 || mu[beta[0].Model] == nil || mu[main.Model] == nil {
				t.Errorf("modelUsage %v lacks the sub-agents' models", mu)
			}
		}
	}
	if tagged["toolu_alpha"] != "alpha has 3 modules" || tagged["toolu_beta"] != "beta has 5 modules" {
		t.Errorf("sub-agent messages by parent_tool_use_id: %v", tagged)
	}
	if strings.Join(resultIDs, ",") != "toolu_alpha,toolu_beta" {
		t.Errorf("parent tool results in order %v", resultIDs)
	}

	// Each sub-agent has its transcript beside the session's.
	subs, _ := filepath.Glob(filepath.Join(sb.ConfigDir, "projects", "*", "*", "subagents", "agent-a*.jsonl"))
	if len(subs) != 2 {
		t.Fatalf("sub-agent transcripts: %v", subs)
	}
	for _, p := range subs {
		data, _ := os.ReadFile(p)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var e map[string]any
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if e["type"] == "user" || e["type"] == "assistant" {
				id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "agent-"), ".jsonl")
				if e["isSidechain"] != true || e["agentId"] != id {
					t.Errorf("%s: entry %v", filepath.Base(p), e)
				}
			}
		}
	}
	// Nothing else is left in the session's scratch space.
	left, _ := filepath.Glob(filepath.Join(sb.ConfigDir, "projects", "*", "*", "subagents", "a*"))
	for _, p := range left {
		if !strings.HasSuffix(p, ".jsonl") {
			t.Errorf("left behind: %s", p)
		}
	}
}

func textOf(line map[string]any) string {
	var sb strings.Builder
	msg, _ := line["message"].(map[string]any)
	content, _ := msg["content"].([]any)
	for _, c := range content {
		if b, ok := c.(map[string]any); ok && b["type"] == "text" {
			sb.WriteString(b["text"].(string))
		}
	}
	return sb.String()
}

func TestCustomAgentIsRefusedToolsOutsideItsList(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/agents/reader.md", "---\nname: reader\ndescription: Reads files and reports what they say.\ntools: Read, Glob\n---\nYou read files. READER-PROMPT\n")
	notes := sb.Write(t, "notes.txt", "the answer is 42\n")
	srv.Add(
		llmtest.Turn{Match: isMain("ask the reader"), Blocks: []llmtest.Block{
			agentCall("toolu_r", "read notes", "TASK-READ: what do the notes say?", "reader", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-READ"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_sh", "Bash", map[string]any{"command": "cat notes.txt > copy.txt"})}},
		llmtest.Turn{Match: answers("TASK-READ", "toolu_sh"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_rd", "Read", map[string]any{"file_path": notes})}},
		llmtest.Turn{Match: answers("TASK-READ", "toolu_rd"), Blocks: []llmtest.Block{
			llmtest.Text("The notes say the answer is 42; Bash was refused.")}},
		llmtest.Turn{Match: isMain("Bash was refused"), Blocks: []llmtest.Block{llmtest.Text("42.")}},
	)
	r := sb.Run(t, "", "-p", "ask the reader", "--allowedTools", "Bash")
	if r.Code != 0 || r.Stdout != "42.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	subs := requestsMatching(srv, isSubagent("TASK-READ"))
	if len(subs) != 3 {
		t.Fatalf("sub-agent requests: %d", len(subs))
	}
	if !strings.Contains(subs[0].SystemText(), "READER-PROMPT") {
		t.Error("the custom agent's body is not its system prompt")
	}
	if got := subs[0].ToolNames(); !slices.Equal(got, []string{"Glob", "Read"}) {
		t.Errorf("the reader was offered %v, want only Glob and Read", got)
	}
	if res := subs[1].ToolResults(); !res[0].IsError || !strings.Contains(res[0].ResultText(), `no tool named "Bash"`) {
		t.Errorf("Bash call answered %+v", res)
	}
	if res := subs[2].ToolResults(); res[0].IsError || !strings.Contains(res[0].ResultText(), "the answer is 42") {
		t.Errorf("Read call answered %+v", res)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "copy.txt")); err == nil {
		t.Error("the refused Bash command ran")
	}
}

func TestBackgroundAgentCompletionReachesTheParent(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	notified := func(r *llmtest.Request) bool {
		return !strings.Contains(r.SystemText(), subagentMarker) && firstUserText(r, "<task-notification>")
	}
	srv.Add(
		llmtest.Turn{Match: isMain("start it in the background"), Blocks: []llmtest.Block{
			agentCall("toolu_bg", "index symbols", "TASK-BG: index the symbols", "general-purpose", map[string]any{"run_in_background": true})}},
		llmtest.Turn{Match: isSubagent("TASK-BG"), Blocks: []llmtest.Block{llmtest.Text("Indexed 17 symbols.")}},
		// Once the completion has been announced, the parent answers.
		llmtest.Turn{Match: notified, Blocks: []llmtest.Block{llmtest.Text("The index is ready.")}},
	)
	// Until then it keeps working: each request without the announcement
	// gets another (slowish) look around.
	for i := range 40 {
		srv.Add(llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return !strings.Contains(r.SystemText(), subagentMarker) && len(r.ToolResults()) == 1 && !notified(r)
		}, Delay: llmtest.Duration(20 * time.Millisecond), Blocks: []llmtest.Block{
			llmtest.ToolUse(fmt.Sprintf("toolu_glob%d", i), "Glob", map[string]any{"pattern": "*.txt"})}})
	}
	r := sb.Run(t, "", "-p", "start it in the background", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s\n%s", r.Code, r.Stderr, r.Stdout)
	}
	var res map[string]any
	json.Unmarshal([]byte(r.Stdout), &res)
	if res["result"] != "The index is ready." {
		t.Fatalf("result %v", res["result"])
	}
	reqs := srv.Requests()
	var launch []llm.ContentBlock
	for _, q := range reqs {
		if tr := q.ToolResults(); len(tr) == 1 && tr[0].ToolUseID == "toolu_bg" {
			launch = tr
		}
	}
	if len(launch) != 1 || launch[0].IsError || !strings.Contains(launch[0].ResultText(), "as task a") {
		t.Fatalf("launch result: %+v", launch)
	}
	final := requestsMatching(srv, notified)
	if len(final) != 1 {
		t.Fatalf("%d parent requests carried the announcement, want 1", len(final))
	}
	var note string
	for _, m := range final[0].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockText && strings.Contains(b.Text, "<task-notification>") {
				note += b.Text
			}
		}
	}
	if strings.Count(note, "<task-notification>") != 1 || !strings.Contains(note, "<status>completed</status>") ||
		!strings.Contains(note, `Agent "index symbols" completed`) || !strings.Contains(note, "Indexed 17 symbols.") {
		t.Errorf("announcement = %q", note)
	}
}

func TestSubagentBackgroundShellIsKilledWhenItEnds(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	pidFile := filepath.Join(sb.Dir, "sleeper.pid")
	// Whether the sleeper was still alive when the parent's next request
	// arrived, that is after the sub-agent ended.
	var mu sync.Mutex
	aliveAfter := map[string]bool{}
	checkSleeper := func() {
		data, err := os.ReadFile(pidFile)
		if err != nil {
			return
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			return
		}
		mu.Lock()
		aliveAfter[strconv.Itoa(pid)] = syscall.Kill(pid, 0) == nil
		mu.Unlock()
	}
	srv.Add(
		llmtest.Turn{Match: isMain("run the sleeper"), Blocks: []llmtest.Block{
			agentCall("toolu_s", "start sleeper", "TASK-SLEEP: start the sleeper", "general-purpose", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-SLEEP"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_bash", "Bash", map[string]any{"command": "echo $$ > " + pidFile + "; exec sleep 300", "run_in_background": true})}},
		// Wait until the background command is running before ending.
		llmtest.Turn{Match: answers("TASK-SLEEP", "toolu_bash"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_wait", "Bash", map[string]any{"command": "while [ ! -s " + pidFile + " ]; do sleep 0.02; done"})}},
		llmtest.Turn{Match: answers("TASK-SLEEP", "toolu_wait"), Blocks: []llmtest.Block{llmtest.Text("The sleeper is running.")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			if !isMain("The sleeper is running.")(r) {
				return false
			}
			checkSleeper()
			return true
		}, Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	r := sb.Run(t, "", "-p", "run the sleeper", "--allowedTools", "Bash")
	if r.Code != 0 || r.Stdout != "Done.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(aliveAfter) != 1 {
		t.Fatalf("the background command never started (or the parent never resumed): %v", aliveAfter)
	}
	for pid, alive := range aliveAfter {
		if alive {
			n, _ := strconv.Atoi(pid)
			syscall.Kill(n, syscall.SIGKILL)
			t.Errorf("the sub-agent's background shell (pid %s) outlived the sub-agent", pid)
		}
	}
}

// agentHooks logs SubagentStart, SubagentStop and PreToolUse hooks whose
// matcher names the Agent tool by its older name, Task; the start hook
// gives the sub-agent extra context.
const agentHooks = `{
  "hooks": {
    "SubagentStart": [{"matcher": "reader", "hooks": [{"type": "command",
      "command": "cat >> \"$CLAUDE_PROJECT_DIR\"/start.log; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"HOOK-CONTEXT-7\"}}'"}]}],
    "SubagentStop": [{"hooks": [{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR\"/stop.log"}]}],
    "PreToolUse": [{"matcher": "Task", "hooks": [{"type": "command", "command": "cat >> \"$CLAUDE_PROJECT_DIR\"/task.log"}]}]
  }
}`

func TestSubagentHooksFireWithTheAgentsIdentity(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", agentHooks)
	sb.Write(t, ".claude/agents/reader.md", "---\nname: reader\ndescription: Reads files.\ntools: Read\n---\nYou read files.\n")
	srv.Add(
		llmtest.Turn{Match: isMain("hook check"), Blocks: []llmtest.Block{agentCall("toolu_h", "read", "TASK-HOOKS: read nothing", "reader", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-HOOKS"), Blocks: []llmtest.Block{llmtest.Text("nothing read")}},
		llmtest.Turn{Match: isMain("nothing read"), Blocks: []llmtest.Block{llmtest.Text("ok")}},
	)
	r := sb.Run(t, "", "-p", "hook check")
	if r.Code != 0 || r.Stdout != "ok\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	sub := requestsMatching(srv, isSubagent("TASK-HOOKS"))
	if len(sub) != 1 || !firstUserText(sub[0], "HOOK-CONTEXT-7") {
		t.Error("the SubagentStart hook's additionalContext did not reach the sub-agent")
	}
	read := func(name string) map[string]any {
		data, err := os.ReadFile(filepath.Join(sb.Dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s holds more than one hook input or bad JSON: %q", name, data)
		}
		return m
	}
	start, stop, task := read("start.log"), read("stop.log"), read("task.log")
	id, _ := start["agent_id"].(string)
	if start["hook_event_name"] != "SubagentStart" || start["agent_type"] != "reader" || !strings.HasPrefix(id, "a") {
		t.Errorf("SubagentStart input: %v", start)
	}
	if stop["hook_event_name"] != "SubagentStop" || stop["agent_id"] != id || stop["agent_type"] != "reader" {
		t.Errorf("SubagentStop input: %v", stop)
	}
	if p, _ := stop["agent_transcript_path"].(string); !strings.HasSuffix(p, filepath.Join("subagents", "agent-"+id+".jsonl")) {
		t.Errorf("agent_transcript_path = %q", p)
	} else if _, err := os.Stat(p); err != nil {
		t.Errorf("the transcript the hook was given does not exist: %v", err)
	}
	if task["tool_name"] != "Agent" || task["hook_event_name"] != "PreToolUse" {
		t.Errorf("a PreToolUse hook matching Task saw: %v", task)
	}
}

// mcpServeProcesses lists the "reins mcp serve" processes running in dir.
func mcpServeProcesses(t *testing.T, dir string) []int {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, p := range procs {
		cmd, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !strings.Contains(string(cmd), "\x00mcp\x00serve") {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join(p, "cwd")); err != nil || cwd != dir {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(p))
		out = append(out, pid)
	}
	return out
}

func TestAgentsOwnMCPServerServesItAndEndsWithIt(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("this test needs /proc to find the server process")
		}
		t.Skip("needs /proc to find the server process")
	}
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "found-me.txt", "x")
	// The agent brings its own MCP server: reins itself, serving its tools.
	sb.Write(t, ".claude/agents/lister.md", "---\nname: lister\ndescription: Lists files through its own server.\n"+
		"tools: Read, mcp__self\nmcpServers:\n  self:\n    command: "+e2etest.Binary(t)+"\n    args: [mcp, serve]\n---\nYou list files.\n")
	var mu sync.Mutex
	var during, after []int
	srv.Add(
		llmtest.Turn{Match: isMain("list with your server"), Blocks: []llmtest.Block{agentCall("toolu_l", "list", "TASK-MCP: list the txt files", "lister", nil)}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			if !isSubagent("TASK-MCP")(r) || len(r.ToolResults()) != 0 {
				return false
			}
			mu.Lock()
			during = mcpServeProcesses(t, sb.Dir)
			mu.Unlock()
			return true
		}, Blocks: []llmtest.Block{llmtest.ToolUse("toolu_g", "mcp__self__Glob", map[string]any{"pattern": "*.txt"})}},
		llmtest.Turn{Match: answers("TASK-MCP", "toolu_g"), Blocks: []llmtest.Block{llmtest.Text("listed the files")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			if !isMain("listed the files")(r) {
				return false
			}
			mu.Lock()
			after = mcpServeProcesses(t, sb.Dir)
			mu.Unlock()
			return true
		}, Blocks: []llmtest.Block{llmtest.Text("ok")}},
	)
	// With tool search on, the server's tools would be deferred behind
	// SearchExtraTools; this test calls one directly.
	sb.Env = append(sb.Env, "ENABLE_TOOL_SEARCH=false")
	r := sb.Run(t, "", "-p", "list with your server", "--allowedTools", "mcp__self")
	if r.Code != 0 || r.Stdout != "ok\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	subs := requestsMatching(srv, isSubagent("TASK-MCP"))
	if len(subs) != 2 {
		t.Fatalf("sub-agent requests: %d", len(subs))
	}
	names := subs[0].ToolNames()
	outside := slices.ContainsFunc(names, func(n string) bool { return n != "Read" && !strings.HasPrefix(n, "mcp__self__") })
	if !slices.Contains(names, "Read") || !slices.Contains(names, "mcp__self__Glob") || outside {
		t.Errorf("the lister was offered %v, want Read and its server's tools only", names)
	}
	if res := subs[1].ToolResults()[0]; res.IsError || !strings.Contains(res.ResultText(), "found-me.txt") {
		t.Errorf("the server's Glob answered %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(during) != 1 {
		t.Errorf("while the agent ran, its server processes were %v, want one", during)
	}
	if len(after) != 0 {
		for _, pid := range after {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("the agent's MCP server outlived it: %v", after)
	}
	if main := requestsMatching(srv, isMain("list with your server")); len(main) != 1 || slices.ContainsFunc(main[0].ToolNames(), func(n string) bool {
		return strings.HasPrefix(n, "mcp__self")
	}) {
		t.Error("the agent's own server's tools reached the main conversation")
	}
}

func TestAgentsOwnMCPToolsAreDeferredLikeTheSessions(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/agents/lister.md", "---\nname: lister\ndescription: Lists files through its own server.\n"+
		"tools: Read, mcp__self\nmcpServers:\n  self:\n    command: "+e2etest.Binary(t)+"\n    args: [mcp, serve]\n---\nYou list files.\n")
	srv.Add(
		llmtest.Turn{Match: isMain("look it up"), Blocks: []llmtest.Block{agentCall("toolu_l", "list", "TASK-DEFER: list files", "lister", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-DEFER"), Blocks: []llmtest.Block{llmtest.Text("nothing to do")}},
		llmtest.Turn{Match: isMain("nothing to do"), Blocks: []llmtest.Block{llmtest.Text("ok")}},
	)
	r := sb.Run(t, "", "-p", "look it up")
	if r.Code != 0 || r.Stdout != "ok\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	sub := requestsMatching(srv, isSubagent("TASK-DEFER"))[0]
	names := sub.ToolNames()
	if !slices.Contains(names, "SearchExtraTools") || !slices.Contains(names, "ExecuteExtraTool") || slices.Contains(names, "mcp__self__Glob") {
		t.Errorf("the lister was offered %v: its server's tools should wait behind the search tools", names)
	}
	if !firstUserText(sub, "mcp__self__Glob") {
		t.Error("the deferred tools were not listed to the sub-agent")
	}
}

func TestAgentDefinitionSkillsAndHooksApplyToItsRun(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/checklist/SKILL.md", "---\nname: checklist\ndescription: The review checklist\n---\nCHECKLIST-BODY: look for unchecked errors.\n")
	sb.Write(t, ".claude/agents/auditor.md", "---\nname: auditor\ndescription: Audits code.\ntools: Read\nskills: [checklist]\n"+
		"hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: cat >> \"$CLAUDE_PROJECT_DIR\"/agent-stop.log\n---\nYou audit code.\n")
	srv.Add(
		llmtest.Turn{Match: isMain("audit it"), Blocks: []llmtest.Block{agentCall("toolu_a", "audit", "TASK-AUDIT: audit main.go", "auditor", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-AUDIT"), Blocks: []llmtest.Block{llmtest.Text("no findings")}},
		llmtest.Turn{Match: isMain("no findings"), Blocks: []llmtest.Block{llmtest.Text("clean")}},
	)
	r := sb.Run(t, "", "-p", "audit it")
	if r.Code != 0 || r.Stdout != "clean\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	sub := requestsMatching(srv, isSubagent("TASK-AUDIT"))[0]
	if !firstUserText(sub, "CHECKLIST-BODY") {
		t.Error("the definition's skill was not preloaded into the agent's first message")
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "agent-stop.log"))
	if err != nil {
		t.Fatalf("the definition's Stop hook did not run: %v", err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil || in["hook_event_name"] != "SubagentStop" || in["agent_type"] != "auditor" {
		t.Errorf("the definition's Stop hook ran as %q", data)
	}
	// The main conversation's own stop does not run the agent's hooks.
	if n := strings.Count(string(data), "hook_event_name"); n != 1 {
		t.Errorf("the agent's hook ran %d times", n)
	}
}

// A background agent's work shows in stream-json output as Claude Code
// shows it: task_started, a task_progress line per tool call it starts
// (with the tool's name and the calls so far), then task_notification.
func TestBackgroundAgentReportsProgressInStreamJSON(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "hello\n")
	notified := func(r *llmtest.Request) bool {
		return !strings.Contains(r.SystemText(), subagentMarker) && firstUserText(r, "<task-notification>")
	}
	srv.Add(
		llmtest.Turn{Match: isMain("look in the background"), Blocks: []llmtest.Block{
			agentCall("toolu_bg", "read notes", "TASK-PROG: read the notes", "general-purpose", map[string]any{"run_in_background": true})}},
		llmtest.Turn{Match: isSubagent("TASK-PROG"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_g", "Glob", map[string]any{"pattern": "*.txt"})}},
		llmtest.Turn{Match: answers("TASK-PROG", "toolu_g"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": filepath.Join(sb.Dir, "notes.txt")})}},
		llmtest.Turn{Match: answers("TASK-PROG", "toolu_r"), Blocks: []llmtest.Block{llmtest.Text("The notes say hello.")}},
		llmtest.Turn{Match: notified, Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	for i := range 40 {
		srv.Add(llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return !strings.Contains(r.SystemText(), subagentMarker) && len(r.ToolResults()) == 1 && !notified(r)
		}, Delay: llmtest.Duration(20 * time.Millisecond), Blocks: []llmtest.Block{
			llmtest.ToolUse(fmt.Sprintf("toolu_wait%d", i), "Glob", map[string]any{"pattern": "*.md"})}})
	}
	r := sb.Run(t, "", "-p", "look in the background", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var kinds []string
	var progress []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		var v map[string]any
		json.Unmarshal([]byte(line), &v)
		if st, _ := v["subtype"].(string); strings.HasPrefix(st, "task_") {
			kinds = append(kinds, st)
			if st == "task_progress" {
				progress = append(progress, v)
			}
		}
	}
	if strings.Join(kinds, " ") != "task_started task_progress task_progress task_notification" {
		t.Fatalf("task lines %v", kinds)
	}
	for i, want := range []string{"Glob", "Read"} {
		p := progress[i]
		usage, _ := p["usage"].(map[string]any)
		if p["last_tool_name"] != want || usage["tool_uses"] != float64(i+1) || p["tool_use_id"] != "toolu_bg" ||
			p["subagent_type"] != "general-purpose" || p["description"] != "read notes" {
			t.Errorf("task_progress %d = %v", i, p)
		}
	}
}
