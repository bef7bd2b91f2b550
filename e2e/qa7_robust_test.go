package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A 100 MB file in .claude/commands (a log left there) is not read whole
// at every start: it is left out with a warning that gives its size and
// the limit, and the other commands still run.
func TestPrintModeLeavesOutAHugeCommandFileWithAWarning(t *testing.T) {
	srv := server(t, llmtest.Turn{Match: func(r *llmtest.Request) bool {
		return strings.Contains(r.LastUserText(), "Say hi.")
	}, Blocks: []llmtest.Block{llmtest.Text("hi")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/hello.md", "Say hi.\n")
	huge := sb.Write(t, ".claude/commands/dump.md", "")
	if err := os.Truncate(huge, 100<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "/hello")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "hi" {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	want := "reins: warning: load " + huge + ": " + huge + " is too large (100.0 MB; the limit is 4.0 MB); the command is left out"
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
	}
}

// A tool name in an agent's tools that is no tool reins has (a typo) is
// reported on stderr with the agent file or the --agents agent and the
// name, instead of the agent silently going without the tool; real tools,
// tools held back in print mode or by --tools, MCP names and patterns are
// not reported.
// LS and MultiEdit are Claude Code tools reins lacks: no typo, no warning.
func TestPrintModeWarnsAboutUnknownToolNamesOfAgents(t *testing.T) {
	srv := server(t, llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("done")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	file := sb.Write(t, ".claude/agents/reviewer.md",
		"---\nname: reviewer\ndescription: reviews\ntools: Read, Grpe, LS, MultiEdit, Bash(git:*), AskUserQuestion, Task, mcp__gh__list, Web*\n---\nReview.\n")
	r := sb.Run(t, "", "-p", "hi", "--tools", "Read,Bash",
		"--agents", `{"tester":{"description":"tests","prompt":"Test.","tools":["Bahs","Edit"]}}`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "done" {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		"reins: warning: agent " + file + `: tools: there is no tool named "Grpe"; the entry is ignored`,
		`reins: warning: --agents: agent "tester": tools: there is no tool named "Bahs"; the entry is ignored`,
	} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	if n := strings.Count(r.Stderr, "there is no tool named"); n != 2 {
		t.Errorf("%d unknown-tool warnings, want 2:\n%s", n, r.Stderr)
	}
}

// An update_environment_variables line (as the Agent SDK sends it) sets
// variables for what the session starts afterwards: the Bash command and
// the hook of the turn that follows see them. Before, the line was
// answered "not supported" and the variables were lost.
func TestSDKUpdateEnvironmentVariablesReachBashAndHooks(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("t1", "Bash", map[string]any{"command": `echo "value=$QA7_TOKEN"`})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"printf '%s' \"$QA7_TOKEN\" > hook-saw.txt"}]}]}}`)
	in := `{"type":"update_environment_variables","variables":{"QA7_TOKEN":"s3cret"}}` + "\n" +
		`{"type":"user","session_id":"","message":{"role":"user","content":"run it"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
		"--allowedTools", "Bash")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"subtype":"success"`) {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if strings.Contains(r.Stderr, "not supported") {
		t.Errorf("the update was refused: %s", r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var results []string
	for _, b := range reqs[1].ToolResults() {
		results = append(results, b.ResultText())
	}
	if got := strings.Join(results, "\n"); !strings.Contains(got, "value=s3cret") {
		t.Errorf("the Bash command's output %q does not show the variable", got)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "hook-saw.txt"))
	if err != nil || string(data) != "s3cret" {
		t.Errorf("the hook saw %q (%v), want the variable", data, err)
	}
}

// A 10 MB prompt on a fresh session, given on stdin to -p or as a
// stream-json user message, is not summarised before the model sees it
// (the model then answered the summary): the run ends with "Prompt is too
// long", its size and the limit; nothing reaches the model, and the
// prompt is in the transcript.
func TestHugePromptEndsWithPromptTooLongInsteadOfBeingSummarised(t *testing.T) {
	huge := "HUGE-PROMPT-START " + strings.Repeat("0123456789abcdef", 10<<20/16)
	for _, mode := range []string{"print", "stream-json"} {
		t.Run(mode, func(t *testing.T) {
			srv := server(t, llmtest.Reply("answered a summary"), llmtest.Reply("answered a summary"))
			sb := e2etest.NewSandbox(t, srv.URL)
			var r e2etest.Result
			if mode == "print" {
				r = sb.Run(t, huge, "-p")
			} else {
				line, err := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": huge}})
				if err != nil {
					t.Fatal(err)
				}
				r = sb.Run(t, string(line)+"\n", "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
			}
			out := r.Stdout + r.Stderr
			failed := r.Code != 0 // print mode exits with an error
			if mode != "print" {
				failed = strings.Contains(r.Stdout, `"is_error":true`) // the turn's result is an error
			}
			if !failed || !strings.Contains(out, "Prompt is too long: about 2,") || !strings.Contains(out, "(the prompt is 10,485,778 bytes)") ||
				!strings.Contains(out, "tokens a request may hold in the model's 1,000,000-token context window") {
				t.Errorf("code %d, output %q", r.Code, truncateOut(out))
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d model requests, want none", n)
			}
			trs := sb.Transcripts(t)
			if len(trs) != 1 {
				t.Fatalf("transcripts %v", trs)
			}
			data, err := os.ReadFile(trs[0])
			if err != nil || !strings.Contains(string(data), "HUGE-PROMPT-START") {
				t.Errorf("the prompt is not in the transcript (%v)", err)
			}
			// The session goes on without it.
			r = sb.Run(t, "", "-p", "--continue", "a small question")
			if r.Code != 0 || strings.TrimSpace(r.Stdout) != "answered a summary" {
				t.Fatalf("continued: code %d, stdout %q, stderr %q", r.Code, truncateOut(r.Stdout), truncateOut(r.Stderr))
			}
			if reqs := srv.Requests(); len(reqs) != 1 || strings.Contains(string(reqs[0].Body), "HUGE-PROMPT-START") {
				t.Errorf("%d requests; the refused prompt was sent again on --continue", len(reqs))
			}
		})
	}
}

func truncateOut(s string) string {
	if len(s) > 2000 {
		return s[:1000] + " … " + s[len(s)-1000:]
	}
	return s
}

// Agents an SDK client defines in its initialize request are checked the
// same way: an unknown tool name is reported on stderr.
func TestSDKInitializeAgentWithUnknownToolIsReported(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	in := `{"type":"control_request","request_id":"r1","request":{"subtype":"initialize","agents":{"checker":{"description":"checks","prompt":"Check.","tools":["Raed","Grep"]}}}}` + "\n" +
		`{"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"subtype":"success"`) {
		t.Fatalf("code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	want := `reins: warning: initialize: agent "checker": tools: there is no tool named "Raed"; the entry is ignored`
	if !strings.Contains(r.Stderr, want) || strings.Contains(r.Stderr, `"Grep"`) {
		t.Errorf("stderr %q, want only %q", r.Stderr, want)
	}
}
