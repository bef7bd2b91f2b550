package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// nextUntil reads output lines until one holds all of wants, and returns
// it decoded.
func (c *client) nextUntil(wants ...string) map[string]any {
	c.t.Helper()
	for {
		line := c.next()
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			var m map[string]any
			json.Unmarshal([]byte(line), &m)
			return m
		}
	}
}

// A command that printed more than the Bash capture keeps (1 MiB) before
// background_tasks moved it still has every byte of its output, once, in
// the task's output file: what it printed before the move and after.
func TestQA5BackgroundTasksKeepsAllOfALargeOutputInTheTaskFile(t *testing.T) {
	cmd := "seq 1 300000; touch started; while [ ! -e release ]; do sleep 0.05; done; seq 300001 300100"
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_big", "Bash", map[string]any{"command": cmd, "description": "count"})),
		llmtest.Reply("Carried on."),
		llmtest.Reply("Noted."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash"]}}`)
	c := start(t, sb, nil)
	c.user("count")
	deadline := time.Now().Add(60 * time.Second)
	for _, err := os.Stat(filepath.Join(sb.Dir, "started")); err != nil; _, err = os.Stat(filepath.Join(sb.Dir, "started")) {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.request("bg1", `{"subtype":"background_tasks","tool_use_id":"toolu_big"}`)
	c.nextUntil(`"request_id":"bg1"`, `"backgrounded":true`)
	c.nextUntil(`"type":"result"`)
	if err := os.WriteFile(filepath.Join(sb.Dir, "release"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	note := c.nextUntil(`"subtype":"task_notification"`)
	c.nextUntil(`"type":"result"`)
	c.nextUntil(`"state":"idle"`)
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	path, _ := note["output_file"].(string)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("task_notification %v: %v", note, err)
	}
	var want strings.Builder
	for i := 1; i <= 300100; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	if string(got) != want.String() {
		t.Fatalf("output file %s has %d bytes, want the command's %d bytes exactly (starts %q)", path, len(got), want.Len(), got[:min(len(got), 80)])
	}
}

// A sub-agent moved to the background by background_tasks reports its
// work as a background agent does: its tool calls after the move give
// task_progress lines for its task (counting the calls it made before
// the move too), and its end one task_notification.
func TestQA5MovedAgentReportsTaskProgress(t *testing.T) {
	wait := "touch started; while [ ! -e release ]; do sleep 0.05; done; echo released"
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_ag", "Agent", map[string]any{"description": "long job", "prompt": "Run the long job."})),
		llmtest.Calls(llmtest.ToolUse("toolu_sub1", "Bash", map[string]any{"command": wait})),
		llmtest.Reply("Carried on."),
		llmtest.Calls(llmtest.ToolUse("toolu_sub2", "Bash", map[string]any{"command": "echo second"})),
		llmtest.Reply("The agent's answer."),
		llmtest.Reply("Noted."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions":{"allow":["Bash","Agent"]}}`)
	c := start(t, sb, nil)
	c.user("start the job")
	deadline := time.Now().Add(60 * time.Second)
	for _, err := os.Stat(filepath.Join(sb.Dir, "started")); err != nil; _, err = os.Stat(filepath.Join(sb.Dir, "started")) {
		if time.Now().After(deadline) {
			t.Fatal("the sub-agent's command never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.request("bg1", `{"subtype":"background_tasks","tool_use_id":"toolu_ag"}`)
	c.nextUntil(`"request_id":"bg1"`, `"backgrounded":true`)
	c.nextUntil(`"type":"result"`)
	if err := os.WriteFile(filepath.Join(sb.Dir, "release"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var progress []map[string]any
	for {
		line := c.next()
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["subtype"] == "task_progress" {
			progress = append(progress, m)
		}
		if m["subtype"] == "task_notification" {
			break
		}
	}
	c.nextUntil(`"type":"result"`)
	c.nextUntil(`"state":"idle"`)
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if len(progress) != 1 {
		t.Fatalf("task_progress lines = %v, want one for the sub-agent's call after the move", progress)
	}
	usage, _ := progress[0]["usage"].(map[string]any)
	if progress[0]["last_tool_name"] != "Bash" || usage["tool_uses"] != float64(2) {
		t.Fatalf("task_progress = %v, want last_tool_name Bash and 2 tool uses", progress[0])
	}
}
