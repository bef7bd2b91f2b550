package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"reins/internal/agent"
	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/permission"
)

// reinsStacks returns the stacks of goroutines running code of the given
// reins packages (as "reins/internal/task." prefixes).
func reinsStacks(pkgs ...string) string {
	buf := make([]byte, 1<<20)
	var bad []string
	for _, s := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(s, "cli.reinsStacks") {
			continue // this goroutine
		}
		for _, p := range pkgs {
			if strings.Contains(s, p) {
				bad = append(bad, s)
				break
			}
		}
	}
	return strings.Join(bad, "\n\n")
}

// waitNoStacks waits until no goroutine runs code of pkgs, and returns
// the stacks of those that still do after d.
func waitNoStacks(d time.Duration, pkgs ...string) string {
	deadline := time.Now().Add(d)
	for {
		s := reinsStacks(pkgs...)
		if s == "" || time.Now().After(deadline) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func subagentRequest(marker string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		if !strings.Contains(r.SystemText(), "Working as a sub-agent:") {
			return false
		}
		for _, m := range r.Messages {
			for _, b := range m.Content {
				if m.Role == llm.RoleUser && b.Type == llm.BlockText && strings.Contains(b.Text, marker) {
					return true
				}
			}
		}
		return false
	}
}

func resultFor(marker, id string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		res := r.ToolResults()
		return subagentRequest(marker)(r) && len(res) == 1 && res[0].ToolUseID == id
	}
}

// sandbox points reins at srv from a fresh home and working folder.
func sandbox(t *testing.T, srv *llmtest.Server) (work string) {
	t.Helper()
	home, work := t.TempDir(), t.TempDir()
	if real, err := filepath.EvalSymlinks(work); err == nil {
		work = real
	}
	t.Chdir(work)
	for k, v := range map[string]string{
		"HOME": home, "REINS_CONFIG_DIR": filepath.Join(home, ".reins"), "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "sk-test", "REINS_RETRY_BASE_MS": "5",
	} {
		t.Setenv(k, v)
	}
	return work
}

// recordingAsker approves every question and keeps them.
type recordingAsker struct {
	mu sync.Mutex
	qs []engine.Question
}

func (r *recordingAsker) Ask(_ context.Context, q engine.Question) (engine.Answer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.qs = append(r.qs, q)
	// "Yes, and don't ask again for touch commands this session."
	return engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(touch:*)"},
		Behavior: "allow", Destination: "session"}}}, nil
}

// TestOnlyForegroundSubagentsAskTheParentsAsker checks DESIGN invariant
// 5 for sub-agents: a foreground sub-agent's permission question goes to
// the parent's asker (naming the sub-agent) and an answer to remember
// holds for the session; a background one's is denied without asking
// anyone.
func TestOnlyForegroundSubagentsAskTheParentsAsker(t *testing.T) {
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	work := sandbox(t, srv)
	fg, bg := filepath.Join(work, "fg.txt"), filepath.Join(work, "bgdir")
	main := func(text string) func(*llmtest.Request) bool {
		return func(r *llmtest.Request) bool {
			return !strings.Contains(r.SystemText(), "Working as a sub-agent:") && strings.Contains(r.LastUserText(), text)
		}
	}
	srv.Add(
		llmtest.Turn{Match: main("make two files"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_fg", "Agent", map[string]any{"description": "fg", "prompt": "TASK-FG: make fg.txt"})}},
		llmtest.Turn{Match: subagentRequest("TASK-FG"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_t1", "Bash", map[string]any{"command": "touch " + fg})}},
		llmtest.Turn{Match: resultFor("TASK-FG", "toolu_t1"), Blocks: []llmtest.Block{llmtest.Text("fg made")}},
		llmtest.Turn{Match: main("fg made"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_bg", "Agent", map[string]any{"description": "bg", "prompt": "TASK-BG: make bgdir", "run_in_background": true})}},
		llmtest.Turn{Match: subagentRequest("TASK-BG"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_t2", "Bash", map[string]any{"command": "mkdir " + bg})}},
		llmtest.Turn{Match: resultFor("TASK-BG", "toolu_t2"), Blocks: []llmtest.Block{llmtest.Text("bg refused")}},
		llmtest.Turn{Match: main("background"), Blocks: []llmtest.Block{llmtest.Text("launched")}},
	)
	asker := &recordingAsker{}
	var errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: os.Getenv}
	ctx := context.Background()
	a, err := newAppFor(ctx, env, &Options{Print: true, OutputFormat: "text"}, frontPrint, appHooks{Asker: asker})
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	for range a.sess.Run(ctx, engine.Input{Content: []llm.ContentBlock{llm.TextBlock("make two files")}}) {
	}
	infos := a.tasks.List()
	if len(infos) != 1 {
		t.Fatalf("background tasks: %+v", infos)
	}
	tk, _ := a.tasks.Get(infos[0].ID)
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := tk.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	srv.AssertClean(t)
	asker.mu.Lock()
	defer asker.mu.Unlock()
	if len(asker.qs) != 1 || asker.qs[0].ToolName != "Bash" || !strings.HasPrefix(asker.qs[0].AgentID, "a") || asker.qs[0].AgentID == infos[0].ID {
		t.Fatalf("questions asked: %+v (background agent %s)", asker.qs, infos[0].ID)
	}
	if _, err := os.Stat(fg); err != nil {
		t.Errorf("the approved foreground call did not run: %v", err)
	}
	if _, err := os.Stat(bg); err == nil {
		t.Error("the background agent's call ran without approval")
	}
	// The remembered answer holds for the session, not just the sub-agent.
	if d := a.checker.Check("Bash", json.RawMessage(`{"command":"touch later.txt"}`), false); d.Behavior != permission.Allow {
		t.Errorf("after the sub-agent's remembered answer the session decides %s: %s", d.Behavior, d.Reason)
	}
	var denied string
	for _, r := range srv.Requests() {
		if resultFor("TASK-BG", "toolu_t2")(r) {
			denied = r.ToolResults()[0].ResultText()
		}
	}
	if !strings.Contains(denied, "runs in the background, where nobody watches it to approve calls") {
		t.Errorf("the background call was answered %q", denied)
	}
}

// TestSubagentReleasesItsGoroutinesAndProcesses runs reins in-process: a
// sub-agent starts a background shell and ends; by the parent's next
// request none of the sub-agent's task or shell goroutines may remain, and
// after the run nothing of reins is left running (DESIGN invariant 9).
func TestSubagentReleasesItsGoroutinesAndProcesses(t *testing.T) {
	srv, err := llmtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	work := sandbox(t, srv)
	pidFile := filepath.Join(work, "sleeper.pid")
	var mu sync.Mutex
	var atReturn string
	srv.Add(
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return !strings.Contains(r.SystemText(), "Working as a sub-agent:") && strings.Contains(r.LastUserText(), "start the sleeper agent")
		}, Blocks: []llmtest.Block{llmtest.ToolUse("toolu_agent", "Agent", map[string]any{
			"description": "sleeper", "prompt": "TASK-SLEEPER: start a sleeper", "subagent_type": "general-purpose"})}},
		llmtest.Turn{Match: subagentRequest("TASK-SLEEPER"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_bg", "Bash",
			map[string]any{"command": "echo $$ > " + pidFile + "; exec sleep 300", "run_in_background": true})}},
		llmtest.Turn{Match: resultFor("TASK-SLEEPER", "toolu_bg"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_wait", "Bash",
			map[string]any{"command": "while [ ! -s " + pidFile + " ]; do sleep 0.02; done"})}},
		llmtest.Turn{Match: resultFor("TASK-SLEEPER", "toolu_wait"), Blocks: []llmtest.Block{llmtest.Text("sleeper started")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			if !strings.Contains(r.LastUserText(), "sleeper started") || strings.Contains(r.SystemText(), "Working as a sub-agent:") {
				return false
			}
			// The sub-agent has ended: its registry and shells must be gone.
			s := waitNoStacks(2*time.Second, "reins/internal/task.", "reins/internal/tools/bash.")
			mu.Lock()
			atReturn = s
			mu.Unlock()
			return true
		}, Blocks: []llmtest.Block{llmtest.Text("all done")}},
	)
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"-p", "start the sleeper agent", "--allowedTools", "Bash"}, strings.NewReader(""), &out, &errb)
	srv.AssertClean(t)
	srv.Close()
	if code != 0 || out.String() != "all done\n" {
		t.Fatalf("code %d stdout %q stderr %s", code, out.String(), errb.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if atReturn != "" {
		t.Errorf("goroutines of the ended sub-agent were still running when the parent went on:\n%s", atReturn)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the sleeper never started: %v", err)
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 && syscall.Kill(pid, 0) == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the sub-agent's background shell (pid %d) outlived the run", pid)
	}
	if left := waitNoStacks(5*time.Second, "reins/internal/"); left != "" {
		t.Errorf("goroutines left after the run:\n%s", left)
	}
}

func TestAgentsFromTheSDKJoinTheCatalog(t *testing.T) {
	a := &app{agents: agent.NewCatalog(agent.Builtin()...)}
	err := a.addAgents(map[string]json.RawMessage{
		"critic":  json.RawMessage(`{"description":"Finds flaws.","prompt":"You criticise.","tools":["Read"],"model":"haiku"}`),
		"Explore": json.RawMessage(`{"description":"Project explorer.","prompt":"You explore this project."}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	cat := a.agentCatalog()
	if d, ok := cat.Lookup("critic"); !ok || d.Source != agent.SourceSDK || d.Model != "haiku" {
		t.Errorf("critic = %+v, %v", d, ok)
	}
	if d, _ := cat.Lookup("Explore"); d.Prompt != "You explore this project." {
		t.Error("an SDK agent did not override the built-in of its name")
	}
	if err := a.addAgents(map[string]json.RawMessage{"bad": json.RawMessage(`{"prompt":"no description"}`)}); err == nil ||
		!strings.Contains(err.Error(), `agent "bad": description is required`) {
		t.Errorf("a bad definition gave %v", err)
	}
}

func TestInlineServers(t *testing.T) {
	cases := []struct {
		raw  string
		want []string // server names
		err  bool
	}{
		{`{"db":{"command":"db-mcp"}}`, []string{"db"}, false},
		{`["github", {"db":{"command":"db-mcp"}}, {"web":{"type":"http","url":"https://x"}}]`, []string{"db", "web"}, false},
		{`["github","slack"]`, nil, false},
		{`[42]`, nil, true},
		{`"github"`, nil, true},
	}
	for _, c := range cases {
		got, err := inlineServers(json.RawMessage(c.raw))
		if (err != nil) != c.err {
			t.Errorf("%s: err = %v", c.raw, err)
			continue
		}
		var names []string
		for n := range got {
			names = append(names, n)
		}
		slices.Sort(names)
		if !slices.Equal(names, c.want) {
			t.Errorf("%s: servers %v, want %v", c.raw, names, c.want)
		}
	}
}

func FuzzInlineServers(f *testing.F) {
	for _, s := range []string{`{"a":{"command":"x"}}`, `["a",{"b":{}}]`, `[]`, `null`, `[{"a":1},"b",{"c":null}]`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := inlineServers(json.RawMessage(raw))
		if err != nil && got != nil {
			t.Errorf("%q: both servers and an error", raw)
		}
		for name, cfg := range got {
			if !json.Valid(cfg) && cfg != nil {
				t.Errorf("%q: server %q has invalid JSON %q", raw, name, cfg)
			}
		}
	})
}

func TestDeniedAgentTypesAreLeftOutOfTheListing(t *testing.T) {
	pol, _, err := permission.NewPolicy(permission.Config{DisallowedTools: []string{"Task(Explore)"}, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a := &app{agents: agent.NewCatalog(agent.Builtin()...), checker: permission.NewChecker(pol, permission.CheckerConfig{})}
	text := a.agentCatalog().Reminder(nil, a.agentTypeVisible)
	if strings.Contains(text, "- Explore:") || !strings.Contains(text, "- Plan:") || !strings.Contains(text, "- general-purpose:") {
		t.Errorf("listing:\n%s", text)
	}
}
