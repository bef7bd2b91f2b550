package sdk_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// The TypeScript SDK's backgroundTasks(toolUseId) moves a running Bash
// call to the background: the call is answered at once with the output so
// far and a task id, the turn goes on, and when the command ends the SDK
// gets a task_notification and the model a turn with it. An id that names
// no running call answers false.
func TestTypeScriptSDKBackgroundTasksMovesARunningBashCall(t *testing.T) {
	cmd := "echo before-move; touch started; while [ ! -e release ]; do sleep 0.05; done; echo after-move"
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_bg", "Bash", map[string]any{"command": cmd, "description": "wait for release"})),
		reply("Carried on.", 120, 10),
		reply("Noted.", 130, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runScript(t, sb, "bgmove.mjs", "toolu_bg")

	if summary["unknown"] != false || summary["moved"] != true {
		t.Fatalf("backgroundTasks answered %v for an unknown id and %v for the running call, want false and true", summary["unknown"], summary["moved"])
	}
	var result map[string]any
	for _, m := range ofType(msgs, "user", "") {
		if r, ok := m["tool_use_result"].(map[string]any); ok {
			result = r
		}
	}
	if result == nil || result["backgroundedByUser"] != true || result["backgroundTaskId"] != "bash_1" {
		t.Fatalf("tool_use_result = %v, want task bash_1 and backgroundedByUser", result)
	}
	started := ofType(msgs, "system", "task_started")
	if len(started) != 1 || started[0]["task_id"] != "bash_1" || started[0]["tool_use_id"] != "toolu_bg" {
		t.Fatalf("task_started lines = %v, want one for bash_1 from toolu_bg", started)
	}
	notes := ofType(msgs, "system", "task_notification")
	if len(notes) != 1 || notes[0]["task_id"] != "bash_1" || notes[0]["status"] != "completed" {
		t.Fatalf("task_notification lines = %v, want bash_1 completed", notes)
	}
	if n := len(ofType(msgs, "result", "")); n != 2 {
		t.Fatalf("%d results, want 2 (the turn, then the notification's turn)", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || res[0].ToolUseID != "toolu_bg" || res[0].IsError ||
		!strings.Contains(res[0].ResultText(), "moved this command to the background") || strings.Contains(res[0].ResultText(), "after-move") {
		t.Fatalf("the second request's results = %+v, want the moved call answered once, without the later output", res)
	}
	// The task's output file has all of the output, before and after the
	// move.
	m := regexp.MustCompile(`All of its output is written to (\S+)\.`).FindStringSubmatch(res[0].ResultText())
	if m == nil {
		t.Fatalf("the result %q names no output file", res[0].ResultText())
	}
	if data, err := os.ReadFile(m[1]); err != nil || string(data) != "before-move\nafter-move\n" {
		t.Fatalf("output file %s = %q (%v), want all of the output", m[1], data, err)
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	var text strings.Builder
	for _, c := range last.Content {
		text.WriteString(c.Text)
	}
	if !strings.Contains(text.String(), "<task-id>bash_1</task-id>") || !strings.Contains(text.String(), "<status>completed</status>") {
		t.Fatalf("the third request ends with %q, want the task's notification", text.String())
	}
}

// backgroundTasks(toolUseId) of a running Agent call moves the sub-agent:
// the call answers with an async launch under the agent's id, the turn
// goes on, and the agent finishes as a task the model is told about.
func TestTypeScriptSDKBackgroundTasksMovesARunningAgentCall(t *testing.T) {
	wait := "touch started; while [ ! -e release ]; do sleep 0.05; done; echo released"
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_ag", "Agent", map[string]any{"description": "long job", "prompt": "Run the long job."})),
		llmtest.Calls(llmtest.ToolUse("toolu_sub", "Bash", map[string]any{"command": wait})),
		reply("Carried on.", 120, 10),
		reply("The agent's answer.", 125, 10),
		reply("Noted.", 130, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runScript(t, sb, "bgmove.mjs", "toolu_ag")

	if summary["unknown"] != false || summary["moved"] != true {
		t.Fatalf("backgroundTasks answered %v for an unknown id and %v for the running Agent call, want false and true", summary["unknown"], summary["moved"])
	}
	var launch map[string]any
	for _, m := range ofType(msgs, "user", "") {
		if r, ok := m["tool_use_result"].(map[string]any); ok && m["parent_tool_use_id"] == nil {
			launch = r
		}
	}
	agentID, _ := launch["agentId"].(string)
	if launch["status"] != "async_launched" || agentID == "" {
		t.Fatalf("tool_use_result = %v, want an async launch with the agent id", launch)
	}
	notes := ofType(msgs, "system", "task_notification")
	if len(notes) != 1 || notes[0]["task_id"] != agentID || notes[0]["status"] != "completed" {
		t.Fatalf("task_notification lines = %v, want the agent %s completed", notes, agentID)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5", len(reqs))
	}
	res := reqs[2].ToolResults()
	if len(res) != 1 || res[0].ToolUseID != "toolu_ag" || !strings.Contains(res[0].ResultText(), "moved the general-purpose agent to the background") {
		t.Fatalf("the main conversation's second request has results %+v, want the moved Agent call answered once", res)
	}
	if sub := reqs[3].ToolResults(); len(sub) != 1 || strings.TrimSpace(sub[0].ResultText()) != "released" {
		t.Fatalf("the sub-agent's Bash result = %+v, want its command to have run on to the end", sub)
	}
}
