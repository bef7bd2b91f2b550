package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// notifiedMain matches a main-conversation request that carries a
// <task-notification> holding text.
func notifiedMain(text string) func(*llmtest.Request) bool {
	return func(r *llmtest.Request) bool {
		return !strings.Contains(r.SystemText(), subagentMarker) && firstUserText(r, "<task-notification>") && firstUserText(r, text)
	}
}

// In print mode the model that starts a background command and ends its
// turn (it was told it would learn when the command finishes) gets a turn
// with the notification once the command ends, as in Claude Code; the run
// ends with that turn's answer. Before, reins printed the first answer and
// exited, killing the command.
func TestQA4PrintWaitsForABackgroundCommandAndAnnouncesIt(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{
			"command": "sleep 0.3; echo BUILD-OK-7", "description": "build", "run_in_background": true})),
		llmtest.Reply("The build runs in the background; I will report when it ends."),
		llmtest.Turn{Match: notifiedMain("exit code 0"), Blocks: []llmtest.Block{llmtest.Text("The build finished: BUILD-OK-7.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "build it in the background", "--allowedTools", "Bash", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s\n%s", r.Code, r.Stderr, r.Stdout)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("result %q: %v", r.Stdout, err)
	}
	if res["result"] != "The build finished: BUILD-OK-7." {
		t.Errorf("result %v, want the answer to the notification", res["result"])
	}
	if n := len(requestsMatching(srv, notifiedMain("exit code 0"))); n != 1 {
		t.Errorf("%d requests carried the notification, want 1", n)
	}
	if res["num_turns"] != float64(3) {
		t.Errorf("num_turns %v, want 3 (both turns of the run)", res["num_turns"])
	}
}

// A background agent the model leaves running when it ends its turn
// reports back in print mode too: its answer reaches the model in a
// notification turn, and stream-json shows the task lines before the one
// result line, which ends the output.
func TestQA4PrintWaitsForABackgroundAgent(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	srv.Add(
		llmtest.Turn{Match: isMain("survey in the background"), Blocks: []llmtest.Block{
			agentCall("toolu_bg", "survey", "TASK-SURVEY: count the files", "general-purpose", map[string]any{"run_in_background": true})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			res := r.ToolResults()
			return !strings.Contains(r.SystemText(), subagentMarker) && len(res) == 1 && res[0].ToolUseID == "toolu_bg"
		}, Blocks: []llmtest.Block{llmtest.Text("Started the survey.")}},
		llmtest.Turn{Match: isSubagent("TASK-SURVEY"), Delay: llmtest.Duration(200e6), Blocks: []llmtest.Block{llmtest.Text("There are 42 files.")}},
		llmtest.Turn{Match: notifiedMain("There are 42 files."), Blocks: []llmtest.Block{llmtest.Text("Survey: 42 files.")}},
	)
	r := sb.Run(t, "", "-p", "survey in the background", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var kinds []string
	var last map[string]any
	for _, line := range r.Lines() {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		k, _ := v["type"].(string)
		if st, ok := v["subtype"].(string); ok && (k == "result" || strings.HasPrefix(st, "task_")) {
			kinds = append(kinds, k+"/"+st)
		}
		last = v
	}
	if strings.Join(kinds, " ") != "system/task_started system/task_notification result/success" {
		t.Errorf("lines %v", kinds)
	}
	if last["type"] != "result" || last["result"] != "Survey: 42 files." {
		t.Errorf("last line %v, want the result of the notification turn", last)
	}
}

// The wait has a limit (CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS, as in Claude
// Code): past it reins says so on stderr, stops the command and ends with
// the answer it has.
func TestQA4PrintBackgroundWaitHasALimit(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{
			"command": "echo $$ > sleeper.pid; exec sleep 300", "run_in_background": true})),
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Bash", map[string]any{"command": "while [ ! -s sleeper.pid ]; do sleep 0.02; done"})),
		llmtest.Reply("Started the server."),
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=300")
	r := sb.Run(t, "", "-p", "start the server", "--allowedTools", "Bash")
	if r.Code != 0 || r.Stdout != "Started the server.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "background tasks still running after 300ms") ||
		!strings.Contains(r.Stderr, "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=0") {
		t.Errorf("stderr %q, want the limit named", r.Stderr)
	}
	data, err := os.ReadFile(filepath.Join(sb.Dir, "sleeper.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid > 0 && syscall.Kill(pid, 0) == nil && !zombie(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the background command (pid %d) outlived reins", pid)
	}
}

// Under the SDK (stream-json input) a background command that finishes
// after the model's turn gives the model a turn of its own with the
// notification, with its own result line, as Claude Code does; and when
// the client's input has already ended, reins waits for the command
// instead of exiting and killing it.
func TestQA4SDKAnnouncesABackgroundCommandAfterTheTurn(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{
			"command": "sleep 0.3; echo TESTS-PASS", "description": "tests", "run_in_background": true})),
		llmtest.Reply("The tests run in the background."),
		llmtest.Turn{Match: notifiedMain("exit code 0"), Blocks: []llmtest.Block{llmtest.Text("The tests passed.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"run the tests in the background"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var results []any
	for _, line := range r.Lines() {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		if v["type"] == "result" {
			results = append(results, v["result"])
		}
	}
	if len(results) != 2 || results[0] != "The tests run in the background." || results[1] != "The tests passed." {
		t.Errorf("results %v, want the turn's and the notification turn's", results)
	}
}

// After ten model replies without a TodoWrite call the model is reminded
// of its todo list (as Claude Code does), with the list as it stands;
// before, reins never reminded it.
func TestQA4TodoReminderAfterTenRepliesWithoutTodoWrite(t *testing.T) {
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("toolu_todo", "TodoWrite", map[string]any{"todos": []map[string]any{
		{"content": "Survey the files", "status": "in_progress", "activeForm": "Surveying the files"}}}))}
	for i := range 10 {
		turns = append(turns, llmtest.Calls(llmtest.ToolUse("toolu_g"+strconv.Itoa(i), "Glob", map[string]any{"pattern": "*.go"})))
	}
	turns = append(turns, llmtest.Reply("Surveyed."))
	srv := server(t, turns...)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "survey")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	has := func(q *llmtest.Request) bool {
		return firstUserText(q, "The TodoWrite tool has not been used for a while.") && firstUserText(q, "[in_progress] Survey the files")
	}
	if has(reqs[10]) {
		t.Errorf("request 11 (ten replies after the call, nine without it) already carries the reminder")
	}
	if !has(reqs[11]) {
		t.Errorf("request 12 (ten replies without TodoWrite) carries no todo reminder")
	}
}

// Under the SDK too the wait after the input ended has its limit: reins
// says so on stderr and exits cleanly instead of hanging on a server the
// model left running.
func TestQA4SDKBackgroundWaitAfterInputEndHasALimit(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "sleep 300", "run_in_background": true})),
		llmtest.Reply("The server runs."),
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=300")
	in := `{"type":"user","session_id":"","message":{"role":"user","content":"start the server"},"parent_tool_use_id":null}` + "\n"
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "background tasks still running after 300ms") {
		t.Errorf("stderr %q, want the limit named", r.Stderr)
	}
	if n := strings.Count(r.Stdout, `"type":"result"`); n != 1 {
		t.Errorf("%d result lines, want 1", n)
	}
}

// A CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS that is not a number is reported
// on stderr (even without --verbose) and the default limit applies.
func TestQA4BadBackgroundWaitSettingIsReported(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "sleep 0.2", "run_in_background": true})),
		llmtest.Reply("Started."),
		llmtest.Turn{Match: notifiedMain("exit code 0"), Blocks: []llmtest.Block{llmtest.Text("Finished.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS=ten minutes")
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash")
	if r.Code != 0 || r.Stdout != "Finished.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, `CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS="ten minutes" is not a number of milliseconds`) {
		t.Errorf("stderr %q, want the bad setting named", r.Stderr)
	}
}
