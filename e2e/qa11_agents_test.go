package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// An agent with "memory: project" gets its folder under
// .claude/agent-memory/<name>, may write there without being asked (print
// mode denies what would ask), and finds its notes in its system prompt
// at the next start.
func TestQA11AgentMemoryIsWritableWithoutAskingAndLoadedNextTime(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Dir, ".claude", "agents", "notetaker.md"),
		"---\nname: notetaker\ndescription: Keeps notes on the code style.\ntools: Grep, Glob\nmemory: project\n---\nYou study the code style.\n")
	memDir := filepath.Join(sb.Dir, ".claude", "agent-memory", "notetaker")
	index := filepath.Join(memDir, "MEMORY.md")
	srv.Add(
		llmtest.Turn{Match: isMain("learn the style"), Blocks: []llmtest.Block{
			agentCall("toolu_a1", "learn style", "TASK-MEM1: learn the style", "notetaker", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-MEM1"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_w", "Write", map[string]any{"file_path": index, "content": "- NOTE-TABS: the code uses tabs\n"})}},
		llmtest.Turn{Match: answers("TASK-MEM1", "toolu_w"), Blocks: []llmtest.Block{llmtest.Text("Noted.")}},
		llmtest.Turn{Match: isMain("Noted."), Blocks: []llmtest.Block{llmtest.Text("Learned.")}},
	)
	r := sb.Run(t, "", "-p", "learn the style")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Learned." {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	first := requestsMatching(srv, isSubagent("TASK-MEM1"))
	if len(first) == 0 {
		t.Fatal("the agent never ran")
	}
	sys := first[0].SystemText()
	if !strings.Contains(sys, memDir) || !strings.Contains(sys, "MEMORY.md is empty") {
		t.Errorf("the first run's system prompt does not describe its empty memory folder %s:\n%s", memDir, sys)
	}
	for _, name := range []string{"Read", "Write", "Edit"} {
		if !slices.Contains(first[0].ToolNames(), name) {
			t.Errorf("the agent lacks %s for its memory: %v", name, first[0].ToolNames())
		}
	}
	res := requestsMatching(srv, answers("TASK-MEM1", "toolu_w"))
	if len(res) != 1 || res[0].ToolResults()[0].IsError {
		t.Fatalf("the memory write was refused: %q", res[0].ToolResults()[0].ResultText())
	}
	if data, err := os.ReadFile(index); err != nil || !strings.Contains(string(data), "NOTE-TABS") {
		t.Fatalf("MEMORY.md = %q, %v", data, err)
	}

	// A write outside the memory folder still needs permission.
	srv.Add(
		llmtest.Turn{Match: isMain("check the style"), Blocks: []llmtest.Block{
			agentCall("toolu_a2", "check style", "TASK-MEM2: check the style", "notetaker", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-MEM2"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_w2", "Write", map[string]any{"file_path": filepath.Join(sb.Dir, "elsewhere.md"), "content": "x"})}},
		llmtest.Turn{Match: answers("TASK-MEM2", "toolu_w2"), Blocks: []llmtest.Block{llmtest.Text("Checked.")}},
		llmtest.Turn{Match: isMain("Checked."), Blocks: []llmtest.Block{llmtest.Text("Fine.")}},
	)
	r = sb.Run(t, "", "-p", "check the style")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	second := requestsMatching(srv, isSubagent("TASK-MEM2"))
	if len(second) == 0 || !strings.Contains(second[0].SystemText(), "NOTE-TABS: the code uses tabs") {
		t.Fatalf("the second run's system prompt lacks the saved note")
	}
	if res := requestsMatching(srv, answers("TASK-MEM2", "toolu_w2")); len(res) != 1 || !res[0].ToolResults()[0].IsError {
		t.Errorf("a write outside the memory folder was not refused in print mode")
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "elsewhere.md")); err == nil {
		t.Error("elsewhere.md was written")
	}
}

// Only the first 200 lines of MEMORY.md are loaded, with a note that
// there is more.
func TestQA11AgentMemoryIndexIsCutAt200Lines(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Home, ".claude", "agents", "keeper.md"),
		"---\nname: keeper\ndescription: Remembers things.\nmemory: user\n---\nYou remember.\n")
	var b strings.Builder
	for i := range 250 {
		b.WriteString("line-" + strings.Repeat("x", i%3) + "-" + string(rune('a'+i%26)) + "\n")
	}
	b.WriteString("LAST-LINE-251\n")
	writeFile(t, filepath.Join(sb.Home, ".claude", "agent-memory", "keeper", "MEMORY.md"), "FIRST-LINE\n"+b.String())
	srv.Add(
		llmtest.Turn{Match: isMain("remember"), Blocks: []llmtest.Block{
			agentCall("toolu_k", "recall", "TASK-KEEP: recall", "keeper", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-KEEP"), Blocks: []llmtest.Block{llmtest.Text("Recalled.")}},
		llmtest.Turn{Match: isMain("Recalled."), Blocks: []llmtest.Block{llmtest.Text("ok")}},
	)
	if r := sb.Run(t, "", "-p", "remember"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := requestsMatching(srv, isSubagent("TASK-KEEP"))
	if len(reqs) == 0 {
		t.Fatal("the agent never ran")
	}
	sys := reqs[0].SystemText()
	if !strings.Contains(sys, "FIRST-LINE") || strings.Contains(sys, "LAST-LINE-251") || !strings.Contains(sys, "only its start is loaded") {
		t.Errorf("the loaded index is not the file's first 200 lines with a note:\n%s", sys)
	}
}

// "background: true" starts the agent as a background task even when the
// call does not ask for it; its answer arrives as a task notification.
func TestQA11BackgroundAgentDefinitionAlwaysRunsInTheBackground(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Dir, ".claude", "agents", "indexer.md"),
		"---\nname: indexer\ndescription: Indexes symbols.\nbackground: true\n---\nYou index.\n")
	notified := func(r *llmtest.Request) bool {
		return !strings.Contains(r.SystemText(), subagentMarker) && firstUserText(r, "<task-notification>")
	}
	srv.Add(
		llmtest.Turn{Match: isMain("index it"), Blocks: []llmtest.Block{
			agentCall("toolu_bg", "index symbols", "TASK-IDX: index the symbols", "indexer", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-IDX"), Blocks: []llmtest.Block{llmtest.Text("Indexed 9 symbols.")}},
		llmtest.Turn{Match: notified, Blocks: []llmtest.Block{llmtest.Text("Index ready.")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			tr := r.ToolResults()
			return !notified(r) && len(tr) == 1 && tr[0].ToolUseID == "toolu_bg"
		}, Blocks: []llmtest.Block{llmtest.Text("Started.")}},
	)
	r := sb.Run(t, "", "-p", "index it", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res map[string]any
	json.Unmarshal([]byte(r.Stdout), &res)
	if res["result"] != "Index ready." {
		t.Errorf("result %v: the notification turn did not run", res["result"])
	}
	var launch string
	for _, q := range srv.Requests() {
		for _, tr := range q.ToolResults() {
			if tr.ToolUseID == "toolu_bg" {
				launch = tr.ResultText()
			}
		}
	}
	if !strings.Contains(launch, "in the background") {
		t.Errorf("the Agent call's result is not a background launch: %q", launch)
	}
}

// An --agent's initialPrompt is the session's first turn, ahead of the
// prompt given; with no prompt it is the whole first turn.
func TestQA11MainAgentInitialPromptLeadsTheFirstTurn(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeFile(t, filepath.Join(sb.Dir, ".claude", "agents", "triage.md"),
		"---\nname: triage\ndescription: Triages issues.\ninitialPrompt: INITIAL-ASK list the open issues\n---\nYou triage.\n")
	srv.Add(
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return strings.Contains(r.LastUserText(), "INITIAL-ASK") && strings.Contains(r.LastUserText(), "USER-ASK")
		}, Blocks: []llmtest.Block{llmtest.Text("both")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), "INITIAL-ASK") },
			Blocks: []llmtest.Block{llmtest.Text("initial only")}},
	)
	r := sb.Run(t, "", "-p", "USER-ASK and the labels", "--agent", "triage")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "both" {
		t.Fatalf("with a prompt: code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].LastUserText()
	if strings.Index(last, "INITIAL-ASK") > strings.Index(last, "USER-ASK") {
		t.Errorf("the initial prompt does not come first: %q", last)
	}
	r = sb.Run(t, "", "-p", "--agent", "triage")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "initial only" {
		t.Fatalf("without a prompt: code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// Without an agent, an empty prompt is still an error.
	if r := sb.Run(t, "", "-p"); r.Code == 0 || !strings.Contains(r.Stderr, "no prompt") {
		t.Errorf("empty prompt without an agent: code %d stderr %q", r.Code, r.Stderr)
	}
}

// `reins agents` lists the agents a session here has, grouped by source.
func TestQA11AgentsSubcommandListsAgentsBySource(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	writeFile(t, filepath.Join(sb.Dir, ".claude", "agents", "reviewer.md"),
		"---\nname: reviewer\ndescription: Reviews.\nmodel: sonnet\nmemory: local\n---\nYou review.\n")
	writeFile(t, filepath.Join(sb.Home, ".claude", "agents", "helper.md"),
		"---\nname: helper\ndescription: Helps.\nbackground: true\n---\nYou help.\n")
	r := sb.Run(t, "", "agents", "--agents", `{"scout":{"description":"Scouts.","prompt":"You scout.","model":"haiku"}}`)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	out := r.Stdout
	order := []string{"Session agents", "scout · haiku", "Project agents", "reviewer · sonnet · memory: local", "User agents", "helper · inherit · background", "Built-in agents", "general-purpose"}
	at := 0
	for _, want := range order {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Fatalf("listing lacks %q after position %d:\n%s", want, at, out)
		}
		at += i
	}
	if !strings.Contains(out, filepath.Join(".claude", "agents", "reviewer.md")) {
		t.Errorf("the project agent's file is not named:\n%s", out)
	}
}
