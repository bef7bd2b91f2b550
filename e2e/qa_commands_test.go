package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A custom command's allowed-tools and model apply to the turn it starts
// (as Claude Code users write /commit commands for `claude -p "/commit"`),
// and only to that turn.
func TestQACommandAllowedToolsAndModelApplyToItsTurnOnly(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch made.txt"})),
		llmtest.Reply("made"),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "touch again.txt"})),
		llmtest.Reply("refused"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/mk.md", "---\ndescription: Make a marker file\nallowed-tools: Bash(touch:*)\nmodel: haiku\n---\nCreate $ARGUMENTS with touch.\n")

	r := sb.Run(t, "", "-p", "/mk made.txt", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		PermissionDenials []map[string]any `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("result %q: %v", r.Stdout, err)
	}
	if len(res.PermissionDenials) != 0 {
		t.Errorf("the command's allowed-tools did not allow its Bash call: denials %v", res.PermissionDenials)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	reqs := srv.Requests()
	for i, rq := range reqs[:2] {
		if !strings.Contains(rq.Model, "haiku") {
			t.Errorf("request %d of the command's turn used model %q, want the command's haiku", i, rq.Model)
		}
	}

	// The next turn of the same session is back to the session's model and
	// rules: the command's grant is gone.
	r = sb.Run(t, "", "-p", "--continue", "make another", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("continue: code %d: %s", r.Code, r.Stderr)
	}
	res.PermissionDenials = nil
	json.Unmarshal([]byte(r.Stdout), &res)
	if len(res.PermissionDenials) != 1 {
		t.Errorf("after the command's turn its allowed-tools still applied: denials %v", res.PermissionDenials)
	}
	reqs = srv.Requests()
	if m := reqs[len(reqs)-1].Model; strings.Contains(m, "haiku") {
		t.Errorf("after the command's turn the model is still %q", m)
	}
}

// A skill the model loads with the Skill tool grants its allowed-tools
// (and model) for the rest of that turn, as the command would.
func TestQASkillLoadedByTheModelGrantsItsAllowedToolsForTheTurn(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_s", "Skill", map[string]any{"skill": "marker", "args": "made.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch made.txt"})),
		llmtest.Reply("made"),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "touch again.txt"})),
		llmtest.Reply("refused"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/marker/SKILL.md", "---\nname: marker\ndescription: Make marker files with touch\nallowed-tools: Bash(touch:*)\nmodel: haiku\n---\nCreate the file named in the arguments with touch: $ARGUMENTS\n")

	r := sb.Run(t, "", "-p", "make a marker", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		PermissionDenials []map[string]any `json:"permission_denials"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("result %q: %v", r.Stdout, err)
	}
	if len(res.PermissionDenials) != 0 {
		t.Errorf("the skill's allowed-tools did not allow its Bash call: denials %v", res.PermissionDenials)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	reqs := srv.Requests()
	if m := reqs[0].Model; strings.Contains(m, "haiku") {
		t.Errorf("the request before the skill loaded used %q", m)
	}
	for i, rq := range reqs[1:3] {
		if !strings.Contains(rq.Model, "haiku") {
			t.Errorf("request %d after the skill loaded used %q, want the skill's haiku", i+1, rq.Model)
		}
	}

	r = sb.Run(t, "", "-p", "--continue", "make another", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("continue: code %d: %s", r.Code, r.Stderr)
	}
	res.PermissionDenials = nil
	json.Unmarshal([]byte(r.Stdout), &res)
	if len(res.PermissionDenials) != 1 {
		t.Errorf("after the skill's turn its allowed-tools still applied: denials %v", res.PermissionDenials)
	}
	reqs = srv.Requests()
	if m := reqs[len(reqs)-1].Model; strings.Contains(m, "haiku") {
		t.Errorf("after the skill's turn the model is still %q", m)
	}
}

// Agent SDK programs send slash commands as user messages
// (query({prompt: "/mk made.txt"})); they expand as in print mode, and an
// unknown one is answered with an error result without a model call.
func TestQACommandsExpandInSDKMode(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch made.txt"})),
		llmtest.Reply("made"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/mk.md", "---\ndescription: Make a marker file\nallowed-tools: Bash(touch:*)\n---\nCreate $ARGUMENTS with touch.\n")
	in := `{"type":"user","message":{"role":"user","content":"/mk made.txt"}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"/nosuchcommand now"}]}}` + "\n"
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var results []map[string]any
	for _, l := range decodeLines(t, r.Stdout) {
		if l["type"] == "result" {
			results = append(results, l)
		}
	}
	if len(results) != 2 {
		t.Fatalf("%d result lines, want 2:\n%s", len(results), r.Stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (the unknown command must not reach the model)", len(reqs))
	}
	if got := reqs[0].LastUserText(); !strings.Contains(got, "Create made.txt with touch.") || strings.Contains(got, "/mk made.txt\n") {
		t.Errorf("the command was not expanded; the model got %q", got)
	}
	if d := results[0]["permission_denials"].([]any); len(d) != 0 {
		t.Errorf("the command's allowed-tools did not apply: %v", d)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	if results[1]["is_error"] != true || !strings.Contains(r.Stdout, "Unknown command: /nosuchcommand") {
		t.Errorf("unknown command result = %v", results[1])
	}
}

// Built-in slash commands work in print mode where they make sense
// (`reins -p --continue "/compact"` is how Claude Code users compact a
// session from a script), and the ones that need the terminal UI say so
// instead of "Unknown command".
func TestQABuiltinCommandsInPrintMode(t *testing.T) {
	srv := server(t,
		llmtest.Reply("first answer"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>QA-SUMMARY: the user asked a first task.</summary>")}, Side: true},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("after compaction")}, ResetPrefix: true})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/mine.md", "---\ndescription: QA-MINE command\n---\nDo it.\n")

	if r := sb.Run(t, "", "-p", "QA-FIRST-TASK"); r.Code != 0 {
		t.Fatalf("first: code %d: %s", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "--continue", "/compact keep the task name")
	if r.Code != 0 {
		t.Fatalf("/compact: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	r = sb.Run(t, "", "-p", "--continue", "go on")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "after compaction" {
		t.Fatalf("after /compact: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3 (first task, summary, next)", len(reqs))
	}
	if !strings.Contains(reqs[1].LastUserText(), "keep the task name") {
		t.Errorf("the summary request lacks the /compact instructions: %q", reqs[1].LastUserText())
	}
	var next []string
	for _, m := range reqs[2].Messages {
		next = append(next, m.Text())
	}
	if joined := strings.Join(next, "\n"); !strings.Contains(joined, "QA-SUMMARY") || strings.Contains(joined, "QA-FIRST-TASK") {
		t.Errorf("the request after /compact does not start from the summary:\n%s", joined)
	}

	for _, c := range []struct{ input, want string }{
		{"/cost", "Total cost"},
		{"/help", "QA-MINE command"},
		{"/status", "Model:"},
	} {
		r := sb.Run(t, "", "-p", c.input)
		if r.Code != 0 || !strings.Contains(r.Stdout, c.want) {
			t.Errorf("%s: code %d out %q err %q", c.input, r.Code, r.Stdout, r.Stderr)
		}
	}
	for _, name := range []string{"resume", "memory", "rewind"} {
		r := sb.Run(t, "", "-p", "/"+name)
		if r.Code != 1 || !strings.Contains(r.Stderr, "/"+name+" isn't available in this mode") {
			t.Errorf("/%s: code %d err %q", name, r.Code, r.Stderr)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("local commands made %d model requests", n-3)
	}
}

// A process a command left running in the background ("sleep 300 &")
// lives on while the session runs and ends when reins exits, as the
// background tasks reins started do.
func TestQABackgroundedProcessEndsWithTheSession(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "sleep 300 >/dev/null 2>&1 & echo pid=$!"})),
		llmtest.Reply("Started."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "start a sleeper", "--allowedTools", "Bash")
	if r.Code != 0 || r.Stdout != "Started.\n" {
		t.Fatalf("code %d stdout %q stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 {
		t.Fatalf("tool results %+v", res)
	}
	_, after, _ := strings.Cut(res[0].ResultText(), "pid=")
	pid, err := strconv.Atoi(strings.TrimSpace(after))
	if err != nil {
		t.Fatalf("no pid in %q", res[0].ResultText())
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the backgrounded sleep (pid %d) outlived reins", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

// A background command shows in stream-json output as Claude Code shows
// it: a system/task_started line when it starts and a
// system/task_notification line when it ends, both before the result.
func TestQABackgroundTaskLinesInStreamJSON(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": "echo hello", "description": "say hello", "run_in_background": true})),
		llmtest.Calls(llmtest.ToolUse("toolu_wait", "Bash", map[string]any{"command": "sleep 0.5"})),
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "say hello in the background", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %s", r.Code, r.Stderr)
	}
	var started, ended map[string]any
	order := []string{}
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		kind := v["type"].(string)
		if st, ok := v["subtype"].(string); ok {
			kind += "/" + st
		}
		order = append(order, kind)
		switch kind {
		case "system/task_started":
			started = v
		case "system/task_notification":
			ended = v
		}
	}
	if order[len(order)-1] != "result/success" {
		t.Errorf("last line is %s, want the result", order[len(order)-1])
	}
	if started == nil || ended == nil {
		t.Fatalf("lines %v: want task_started and task_notification", order)
	}
	if started["task_id"] != ended["task_id"] || started["tool_use_id"] != "toolu_bg" || started["description"] != "say hello" ||
		started["task_type"] != "local_bash" || started["is_backgrounded"] != true || started["session_id"] == "" {
		t.Errorf("task_started = %v", started)
	}
	out, _ := ended["output_file"].(string)
	data, err := os.ReadFile(out)
	if ended["status"] != "completed" || ended["tool_use_id"] != "toolu_bg" || err != nil || strings.TrimSpace(string(data)) != "hello" ||
		!strings.Contains(ended["summary"].(string), "completed with exit code 0") {
		t.Errorf("task_notification = %v (output file: %q, %v)", ended, data, err)
	}
}
