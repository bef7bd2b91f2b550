package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// firstText is the text of the first message of a request: the memory
// files reach the model there.
func firstText(r *llmtest.Request) string {
	if len(r.Messages) == 0 {
		return ""
	}
	return historyTexts(r)[0]
}

// An --add-dir folder's CLAUDE.md reaches the model only with
// CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD set, in the environment or
// in the settings' env, as in Claude Code; before, it always loaded.
func TestQA8AddDirMemoryNeedsTheEnvironmentVariable(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "CLAUDE.md"), []byte("EXTRA-FOLDER-MEMORY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY\n")
	run := func(env ...string) *llmtest.Request {
		t.Helper()
		srv.Add(llmtest.Reply("ok"))
		s := *sb
		s.Env = append(append([]string(nil), sb.Env...), env...)
		r := s.Run(t, "", "-p", "hi", "--add-dir", extra)
		if r.Code != 0 {
			t.Fatalf("code %d err %q", r.Code, r.Stderr)
		}
		reqs := srv.Requests()
		return reqs[len(reqs)-1]
	}
	if got := firstText(run()); !strings.Contains(got, "PROJECT-MEMORY") || strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("without the variable: want the project's memory and not the --add-dir folder's:\n%s", got)
	}
	if got := firstText(run("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1")); !strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("with the variable set: the --add-dir folder's memory is missing:\n%s", got)
	}
	sb.Write(t, ".claude/settings.json", `{"env":{"CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD":"true"}}`)
	if got := firstText(run()); !strings.Contains(got, "EXTRA-FOLDER-MEMORY") {
		t.Errorf("with the variable in the settings' env: the --add-dir folder's memory is missing:\n%s", got)
	}
}

// A rule whose paths: glob has brace alternatives (the form Claude Code's
// documentation shows) reaches the model with the Read of a matching
// file; its glob was cut at the comma, so it never did.
func TestQA8RuleWithBraceGlobLoadsWhenAMatchingFileIsRead(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/rules/frontend.md", "---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n---\nFRONTEND-RULE: use hooks.\n")
	f := sb.Write(t, "src/ui/App.tsx", "export const App = 1\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("r1", "Read", map[string]any{"file_path": f})}},
		llmtest.Reply("done"))
	r := sb.Run(t, "", "-p", "read the app")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if carries(reqs[0], "FRONTEND-RULE") {
		t.Error("the conditional rule was sent before a matching file was read")
	}
	if !carries(reqs[len(reqs)-1], "FRONTEND-RULE") {
		t.Errorf("the rule did not come with the Read of src/ui/App.tsx:\n%q\nstderr %s", historyTexts(reqs[len(reqs)-1]), r.Stderr)
	}
}

// compactBoundary returns the compact_boundary line of stream-json output,
// and where it is among the lines (-1 when missing).
func compactBoundary(t *testing.T, lines []string) (map[string]any, int) {
	t.Helper()
	for i, l := range lines {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["type"] == "system" && m["subtype"] == "compact_boundary" {
			return m, i
		}
	}
	return nil, -1
}

// /compact sent as a user message (Agent SDK, stream-json input) writes a
// compact_boundary system line with trigger "manual" and the tokens
// before it, ahead of the command's result, as Claude Code does; only a
// compaction during a turn wrote one.
func TestQA8ManualCompactWritesACompactBoundaryLine(t *testing.T) {
	srv := server(t,
		llmtest.Reply("first answer"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>We said hello.</summary>")}, Side: true},
		llmtest.Reply("after"))
	sb := e2etest.NewSandbox(t, srv.URL)
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"hello there"},"parent_tool_use_id":null}
{"type":"user","session_id":"","message":{"role":"user","content":"/compact keep the greeting"},"parent_tool_use_id":null}
{"type":"user","session_id":"","message":{"role":"user","content":"what now"},"parent_tool_use_id":null}
`
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	lines := r.Lines()
	b, at := compactBoundary(t, lines)
	if b == nil {
		t.Fatalf("no compact_boundary line:\n%s", r.Stdout)
	}
	meta, _ := b["compact_metadata"].(map[string]any)
	if meta["trigger"] != "manual" || meta["pre_tokens"] == nil || meta["pre_tokens"].(float64) <= 0 {
		t.Errorf("compact_metadata = %v, want trigger manual and pre_tokens > 0", meta)
	}
	if b["session_id"] == "" || b["uuid"] == "" {
		t.Errorf("the line lacks session_id or uuid: %v", b)
	}
	var results []int
	for i, l := range lines {
		if strings.HasPrefix(l, `{"type":"result"`) {
			results = append(results, i)
		}
	}
	if len(results) != 3 || at < results[0] || at > results[1] {
		t.Errorf("the boundary (line %d) is not between the first result and the /compact one (%v)", at, results)
	}
	if reqs := srv.Requests(); !carries(reqs[len(reqs)-1], "We said hello.") {
		t.Error("the turn after /compact does not carry the summary")
	}
}

// reins -p "/compact" --continue --output-format stream-json writes the
// boundary line too.
func TestQA8PrintModeCompactWritesACompactBoundaryLine(t *testing.T) {
	srv := server(t,
		llmtest.Reply("first answer"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>We said hello.</summary>")}, Side: true})
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hello there"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "/compact", "--continue", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	lines := r.Lines()
	b, at := compactBoundary(t, lines)
	if b == nil || at != len(lines)-2 {
		t.Fatalf("want the compact_boundary line just before the result:\n%s", r.Stdout)
	}
	if meta, _ := b["compact_metadata"].(map[string]any); meta["trigger"] != "manual" {
		t.Errorf("compact_metadata = %v", meta)
	}
}

// After /clear (an Agent SDK client's), the new conversation gets the
// memory files as they are now and, when the model reads in a sub-folder
// again, that folder's CLAUDE.md again, as in Claude Code. Before, the
// memory read at start stayed and the sub-folder's file was taken as
// already given, so the new conversation never had it.
func TestQA8ClearRereadsMemoryAndGivesNestedMemoryAgain(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "CLAUDE.md", "ORIGINAL-MEMORY\n")
	sb.Write(t, "pkg/CLAUDE.md", "NESTED-PKG-MEMORY\n")
	f := sb.Write(t, "pkg/a.go", "package pkg\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("r1", "Read", map[string]any{"file_path": f})}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("b1", "Bash", map[string]any{"command": "echo CHANGED-MEMORY > CLAUDE.md"})}},
		llmtest.Reply("first done"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("r2", "Read", map[string]any{"file_path": f})}},
		llmtest.Reply("second done"))
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"read pkg"},"parent_tool_use_id":null}
{"type":"user","session_id":"","message":{"role":"user","content":"/clear"},"parent_tool_use_id":null}
{"type":"user","session_id":"","message":{"role":"user","content":"read pkg again"},"parent_tool_use_id":null}
`
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash")
	if r.Code != 0 || !strings.Contains(r.Stdout, "second done") {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	first, last := reqs[1], reqs[len(reqs)-1]
	if !carries(first, "NESTED-PKG-MEMORY") {
		t.Fatalf("the first conversation was not given pkg/CLAUDE.md:\n%q", historyTexts(first))
	}
	if !carries(last, "NESTED-PKG-MEMORY") {
		t.Errorf("after /clear, reading pkg/a.go did not give pkg/CLAUDE.md again:\n%q", historyTexts(last))
	}
	if got := firstText(last); !strings.Contains(got, "CHANGED-MEMORY") || strings.Contains(got, "ORIGINAL-MEMORY") {
		t.Errorf("after /clear, the memory is not CLAUDE.md as it is now:\n%s", got)
	}
}

// The claudeMdExcludes setting leaves out the memory files its globs
// match (absolute paths), the lists of several settings files joined; it
// was not read, so every file loaded.
func TestQA8ClaudeMdExcludesLeavesOutMatchingFiles(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "CLAUDE.md", "ROOT-MEMORY\n")
	sb.Write(t, ".claude/rules/legacy.md", "LEGACY-RULE\n")
	sb.Write(t, ".claude/rules/style.md", "STYLE-RULE\n")
	sb.Write(t, "CLAUDE.local.md", "LOCAL-MEMORY\n")
	sb.Write(t, ".claude/settings.json", `{"claudeMdExcludes":["**/.claude/rules/legacy.md"]}`)
	sb.Write(t, ".claude/settings.local.json", `{"claudeMdExcludes":["`+filepath.ToSlash(filepath.Join(sb.Dir, "CLAUDE.local.md"))+`"]}`)
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	got := firstText(srv.Requests()[0])
	if !strings.Contains(got, "ROOT-MEMORY") || !strings.Contains(got, "STYLE-RULE") {
		t.Errorf("files not excluded are missing:\n%s", got)
	}
	if strings.Contains(got, "LEGACY-RULE") || strings.Contains(got, "LOCAL-MEMORY") {
		t.Errorf("excluded files were sent:\n%s", got)
	}
}

// /context works in print and SDK modes (it was refused as a terminal-UI
// command although the init line lists it): the categories, memory files
// among them, add up with the free space and the autocompact buffer to
// the context window, and each memory file is listed.
func TestQA8ContextCommandInSDKModeAddsUpAndListsMemoryFiles(t *testing.T) {
	srv := server(t, llmtest.Reply("first answer"))
	sb := e2etest.NewSandbox(t, srv.URL)
	mem := sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY\n")
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"hello there"},"parent_tool_use_id":null}
{"type":"user","session_id":"","message":{"role":"user","content":"/context"},"parent_tool_use_id":null}
`
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	var res map[string]any
	for _, l := range r.Lines() {
		if strings.HasPrefix(l, `{"type":"result"`) {
			res = nil
			if err := json.Unmarshal([]byte(l), &res); err != nil {
				t.Fatal(err)
			}
		}
	}
	if res == nil || res["is_error"] != false {
		t.Fatalf("the /context result: %v\n%s", res, r.Stdout)
	}
	text, _ := res["result"].(string)
	if !strings.Contains(text, "| Memory files |") || !strings.Contains(text, "| Project | "+mem+" |") {
		t.Errorf("no memory category or file in:\n%s", text)
	}
	sum, window, used := 0, 0, 0
	for _, l := range strings.Split(text, "\n") {
		f := strings.Split(l, "|")
		if len(f) == 5 && !strings.Contains(l, "---") && f[1] != " Category " && f[1] != " Type " {
			var n int
			fmt.Sscan(strings.ReplaceAll(strings.TrimSpace(f[2]), ",", ""), &n)
			sum += n
		}
		if strings.HasPrefix(l, "Context usage:") {
			var a, b string
			fmt.Sscanf(l[strings.Index(l, "·")+len("·"):], " %s of %s tokens", &a, &b)
			fmt.Sscan(strings.ReplaceAll(a, ",", ""), &used)
			fmt.Sscan(strings.ReplaceAll(b, ",", ""), &window)
		}
	}
	if window == 0 || used == 0 || sum != window {
		t.Errorf("the categories add up to %d, the window is %d (used %d):\n%s", sum, window, used, text)
	}
}

// get_context_usage names the memory files with Claude Code's types and
// their size, splits the context into categories that add up to the
// window, and says whether autocompaction is on (DISABLE_AUTO_COMPACT
// turns it off). It gave one "Messages" category and no memory files.
func TestQA8GetContextUsageListsMemoryFilesAndCategories(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	mem := sb.Write(t, "CLAUDE.md", "PROJECT-MEMORY\n")
	loc := sb.Write(t, "CLAUDE.local.md", "LOCAL-MEMORY\n")
	for _, disabled := range []bool{false, true} {
		s := *sb
		if disabled {
			s.Env = append(append([]string(nil), sb.Env...), "DISABLE_AUTO_COMPACT=1")
		}
		in := `{"type":"control_request","request_id":"cu1","request":{"subtype":"get_context_usage"}}` + "\n"
		r := s.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
		if r.Code != 0 {
			t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
		}
		var resp struct {
			Response struct {
				Response struct {
					Categories []struct {
						Name   string `json:"name"`
						Tokens int    `json:"tokens"`
					} `json:"categories"`
					TotalTokens int  `json:"totalTokens"`
					MaxTokens   int  `json:"maxTokens"`
					Auto        bool `json:"isAutoCompactEnabled"`
					MemoryFiles []struct {
						Path   string `json:"path"`
						Type   string `json:"type"`
						Tokens int    `json:"tokens"`
					} `json:"memoryFiles"`
				} `json:"response"`
			} `json:"response"`
		}
		for _, l := range r.Lines() {
			if strings.Contains(l, `"control_response"`) && strings.Contains(l, `"cu1"`) {
				if err := json.Unmarshal([]byte(l), &resp); err != nil {
					t.Fatal(err)
				}
			}
		}
		cu := resp.Response.Response
		sum, names := 0, map[string]bool{}
		for _, c := range cu.Categories {
			sum += c.Tokens
			names[c.Name] = true
		}
		if cu.MaxTokens == 0 || sum != cu.MaxTokens || !names["Memory files"] || !names["System prompt"] || !names["Free space"] {
			t.Errorf("categories %+v add up to %d, window %d", cu.Categories, sum, cu.MaxTokens)
		}
		if names["Autocompact buffer"] == disabled || cu.Auto == disabled {
			t.Errorf("DISABLE_AUTO_COMPACT=%v: isAutoCompactEnabled %v, categories %+v", disabled, cu.Auto, cu.Categories)
		}
		got := map[string]string{}
		for _, m := range cu.MemoryFiles {
			got[m.Path] = m.Type
			if m.Tokens <= 0 {
				t.Errorf("memory file %s has %d tokens", m.Path, m.Tokens)
			}
		}
		if got[mem] != "Project" || got[loc] != "Local" {
			t.Errorf("memoryFiles = %+v", cu.MemoryFiles)
		}
	}
}

// A project's .claude/rules that is a symbolic link to a shared rules
// folder reaches the model; the walk did not follow the link.
func TestQA8LinkedRulesFolderLoads(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	shared := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shared, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shared, "go", "errors.md"), []byte("SHARED-TEAM-RULE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, ".claude/settings.json", "{}")
	if err := os.Symlink(shared, filepath.Join(sb.Dir, ".claude", "rules")); err != nil {
		t.Fatal(err)
	}
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	if got := firstText(srv.Requests()[0]); !strings.Contains(got, "SHARED-TEAM-RULE") {
		t.Errorf("the linked rules folder was not read:\n%s", got)
	}
}

// After a compaction the memory files are read again, as Claude Code
// clears its memory caches then: a CLAUDE.md changed during the turn
// reaches the request that follows the summary. The memory read at start
// stayed.
func TestQA8CompactionReadsTheMemoryFilesAgain(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", smallWindow)
	sb.Write(t, "CLAUDE.md", "ORIGINAL-MEMORY\n")
	srv.Add(
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("b1", "Bash", map[string]any{"command": "echo CHANGED-MEMORY > CLAUDE.md"})},
			Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>The memory file was rewritten.</summary>")}, Side: true},
		llmtest.Reply("Continuing after the summary."))
	r := sb.Run(t, "", "-p", "rewrite the memory", "--model", "sonnet", "--allowedTools", "Bash")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "Continuing after the summary." {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (tool turn, summary, continuation)", len(reqs))
	}
	if got := firstText(reqs[2]); !strings.Contains(got, "CHANGED-MEMORY") || strings.Contains(got, "ORIGINAL-MEMORY") {
		t.Errorf("the request after the compaction does not carry CLAUDE.md as it is now:\n%s", got)
	}
}
