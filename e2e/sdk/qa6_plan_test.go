package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/automode"
	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// turnLog is what one SDK turn showed the client.
type turnLog struct {
	asked   []string // tool names put to can_use_tool
	notices []string // system informational contents
	modes   []string // permissionMode of system status lines
	errors  map[string]string
}

// runTurn reads lines up to the turn's result, answering can_use_tool
// questions with allow (and the updatedPermissions answer gives for the
// tool, if any).
func runTurn(c *client, updates map[string]string) turnLog {
	c.t.Helper()
	log := turnLog{errors: map[string]string{}}
	for {
		line := c.next()
		var v struct {
			Type      string `json:"type"`
			Subtype   string `json:"subtype"`
			Message   json.RawMessage
			RequestID string `json:"request_id"`
			Request   struct {
				Subtype  string          `json:"subtype"`
				ToolName string          `json:"tool_name"`
				Input    json.RawMessage `json:"input"`
			} `json:"request"`
		}
		if json.Unmarshal([]byte(line), &v) != nil {
			continue
		}
		switch {
		case v.Type == "control_request" && v.Request.Subtype == "can_use_tool":
			log.asked = append(log.asked, v.Request.ToolName)
			ans := `{"behavior":"allow","updatedInput":` + string(v.Request.Input)
			if u := updates[v.Request.ToolName]; u != "" {
				ans += `,"updatedPermissions":` + u
			}
			c.answer(v.RequestID, ans+"}")
		case v.Type == "system" && v.Subtype == "informational":
			var n struct{ Content, Level string }
			json.Unmarshal([]byte(line), &n)
			log.notices = append(log.notices, n.Level+": "+n.Content)
		case v.Type == "system" && v.Subtype == "status":
			var n struct {
				Mode string `json:"permissionMode"`
			}
			json.Unmarshal([]byte(line), &n)
			log.modes = append(log.modes, n.Mode)
		case v.Type == "user":
			var m struct {
				Content []struct {
					ToolUseID string          `json:"tool_use_id"`
					IsError   bool            `json:"is_error"`
					Content   json.RawMessage `json:"content"`
				} `json:"content"`
			}
			json.Unmarshal(v.Message, &m)
			for _, b := range m.Content {
				if b.IsError {
					log.errors[b.ToolUseID] = string(b.Content)
				}
			}
		case v.Type == "result":
			return log
		}
	}
}

// An SDK session in auto mode that the client puts in plan mode goes
// back to auto mode when the client approves the plan (can_use_tool allow
// without a setMode update): the next command goes to the classifier,
// not to the client.
func TestSDKApprovedPlanReturnsToAutoMode(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_plan", "ExitPlanMode", map[string]any{"plan": "1. archive a.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_tar", "Bash", map[string]any{"command": "tar -cf a.tar a.txt"})),
		llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
			Blocks: []llmtest.Block{llmtest.ToolUse("v1", automode.VerdictTool, map[string]string{"decision": "allow", "reason": "local archive"})}},
		llmtest.Reply("Archived."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "a")
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.request("mode-1", `{"subtype":"set_permission_mode","mode":"auto"}`)
	c.request("mode-2", `{"subtype":"set_permission_mode","mode":"plan"}`)
	c.user("Plan, then archive a.txt.")
	log := runTurn(c, nil)
	if strings.Join(log.asked, ",") != "ExitPlanMode" {
		t.Errorf("can_use_tool asked about %v, want only ExitPlanMode (the archive is auto mode's to review)", log.asked)
	}
	if len(log.errors) != 0 {
		t.Errorf("error results: %v", log.errors)
	}
	// The client's switches are confirmed as Claude Code confirms them,
	// then the approved plan's return to auto is announced.
	if strings.Join(log.modes, ",") != "auto,plan,auto" {
		t.Errorf("status lines told the modes %v, want auto and plan (the client's switches) and the return to auto", log.modes)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "a.tar")); err != nil {
		t.Errorf("the archive was not made: %v", err)
	}
}

// A session in acceptEdits mode that the model puts in plan mode
// (EnterPlanMode) goes back to acceptEdits when the client approves the
// plan: the edit that follows is not put to the client.
func TestSDKApprovedPlanReturnsToAcceptEdits(t *testing.T) {
	sb := e2etest.NewSandbox(t, "")
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_enter", "EnterPlanMode", map[string]any{})),
		llmtest.Calls(llmtest.ToolUse("toolu_plan", "ExitPlanMode", map[string]any{"plan": "1. write b.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Write", map[string]any{"file_path": filepath.Join(sb.Dir, "b.txt"), "content": "b\n"})),
		llmtest.Reply("Written."))
	sb.BaseURL = srv.URL
	for i, e := range sb.Env {
		if strings.HasPrefix(e, "ANTHROPIC_BASE_URL=") {
			sb.Env[i] = "ANTHROPIC_BASE_URL=" + srv.URL
		}
	}
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio", "--permission-mode", "acceptEdits")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.user("Plan first, then write b.txt.")
	log := runTurn(c, nil)
	if strings.Join(log.asked, ",") != "ExitPlanMode" {
		t.Errorf("can_use_tool asked about %v, want only ExitPlanMode", log.asked)
	}
	if strings.Join(log.modes, ",") != "plan,acceptEdits" {
		t.Errorf("status lines told the modes %v, want plan (the model's EnterPlanMode) then acceptEdits", log.modes)
	}
	if len(log.errors) != 0 {
		t.Errorf("error results: %v", log.errors)
	}
	if data, err := os.ReadFile(filepath.Join(sb.Dir, "b.txt")); err != nil || string(data) != "b\n" {
		t.Errorf("b.txt = %q, %v", data, err)
	}
}

// set_permission_mode auto sets aside an allow rule that lets any code
// run, as starting in auto mode does, and says so: on stderr with the
// start-up warning's words and as a system informational line (the Agent
// SDK's banner message). The command the
// rule would have allowed goes to the classifier.
func TestSDKSwitchIntoAutoAnnouncesTheRulesItSetsAside(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_py", "Bash", map[string]any{"command": "python3 -c 'print(1)'"})),
		llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
			Blocks: []llmtest.Block{llmtest.ToolUse("v1", automode.VerdictTool, map[string]string{"decision": "block", "reason": "not needed"})}},
		llmtest.Reply("Blocked."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.local.json", `{"permissions":{"allow":["Bash(python3:*)"]}}`)
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.request("mode-1", `{"subtype":"set_permission_mode","mode":"auto"}`)
	c.user("Run the script.")
	log := runTurn(c, nil)
	const said = "auto mode sets aside allow rules that let any code run, so its classifier reviews the commands they cover: Bash(python3:*)"
	if !strings.Contains(c.stderrText(), "reins: warning: "+said) {
		t.Errorf("stderr does not name the rule set aside:\n%s", c.stderrText())
	}
	if len(log.notices) != 1 || log.notices[0] != "warning: "+said {
		t.Errorf("system notices %q, want the rule set aside once", log.notices)
	}
	if !strings.Contains(log.errors["toolu_py"], "Auto mode blocked this Bash call") {
		t.Errorf("the python3 command was not reviewed by the classifier: %v", log.errors)
	}
	if len(log.asked) != 0 {
		t.Errorf("can_use_tool asked about %v", log.asked)
	}
	if strings.Join(log.modes, ",") != "auto" {
		t.Errorf("status lines told the modes %v, want the client's switch to auto once", log.modes)
	}
}

// A sub-agent the client moved to the background (background_tasks)
// cannot ask any more: its next call that needs approval is denied with a
// result that says why, and can_use_tool is not sent for it.
func TestSDKMovedSubagentDeniesInsteadOfAsking(t *testing.T) {
	const marker = "Working as a sub-agent:"
	isSub := func(r *llmtest.Request) bool { return strings.Contains(r.SystemText(), marker) }
	after := func(sub bool, id string) func(*llmtest.Request) bool {
		return func(r *llmtest.Request) bool {
			res := r.ToolResults()
			if id == "" {
				return isSub(r) == sub && len(res) == 0 && len(r.Messages) == 1
			}
			return isSub(r) == sub && len(res) == 1 && res[0].ToolUseID == id
		}
	}
	sb := e2etest.NewSandbox(t, "")
	target := filepath.Join(sb.Dir, "out.txt")
	wait := "touch started; while [ ! -e release ]; do sleep 0.05; done; echo released"
	srv := server(t,
		llmtest.Turn{Match: after(false, ""), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_ag", "Agent", map[string]any{"description": "long job", "prompt": "Run the long job."})}},
		llmtest.Turn{Match: after(true, ""), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_wait", "Bash", map[string]any{"command": wait})}},
		llmtest.Turn{Match: after(false, "toolu_ag"), Blocks: []llmtest.Block{llmtest.Text("Carried on.")}},
		llmtest.Turn{Match: after(true, "toolu_wait"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_w", "Write", map[string]any{"file_path": target, "content": "x\n"})}},
		llmtest.Turn{Match: after(true, "toolu_w"), Blocks: []llmtest.Block{llmtest.Text("Could not write out.txt.")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return !isSub(r) }, Blocks: []llmtest.Block{llmtest.Text("Noted.")}})
	sb.BaseURL = srv.URL
	for i, e := range sb.Env {
		if strings.HasPrefix(e, "ANTHROPIC_BASE_URL=") {
			sb.Env[i] = "ANTHROPIC_BASE_URL=" + srv.URL
		}
	}
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio", "--allowedTools", "Bash")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.user("Start the long job.")
	var asked []string
	sent, results := false, 0
	for deadline := time.Now().Add(time.Minute); results < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %d results; stderr:\n%s", results, c.stderrText())
		}
		var line string
		select {
		case line = <-c.lines:
		case <-time.After(20 * time.Millisecond):
			if _, err := os.Stat(filepath.Join(sb.Dir, "started")); err == nil && !sent {
				c.request("bg-1", `{"subtype":"background_tasks","tool_use_id":"toolu_ag"}`)
				sent = true
			}
			continue
		}
		var v struct {
			Type      string `json:"type"`
			RequestID string `json:"request_id"`
			Request   struct {
				Subtype  string `json:"subtype"`
				ToolName string `json:"tool_name"`
			} `json:"request"`
			Response struct {
				RequestID string         `json:"request_id"`
				Response  map[string]any `json:"response"`
			} `json:"response"`
		}
		json.Unmarshal([]byte(line), &v)
		switch {
		case v.Type == "control_response" && v.Response.RequestID == "bg-1":
			if v.Response.Response["backgrounded"] != true {
				t.Fatalf("background_tasks answered %s", line)
			}
			os.WriteFile(filepath.Join(sb.Dir, "release"), nil, 0o644)
		case v.Type == "control_request" && v.Request.Subtype == "can_use_tool":
			asked = append(asked, v.Request.ToolName)
			c.answer(v.RequestID, `{"behavior":"deny","message":"no"}`)
		case v.Type == "result":
			results++
		}
	}
	if len(asked) != 0 {
		t.Errorf("can_use_tool was sent for %v after the agent moved to the background", asked)
	}
	var res []llm.ContentBlock
	for _, r := range srv.Requests() {
		if after(true, "toolu_w")(r) {
			res = r.ToolResults()
		}
	}
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "runs in the background, where nobody watches it to approve calls") {
		t.Errorf("the sub-agent's Write result = %+v, want a denial that says why", res)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the denied write happened")
	}
}

// With the TypeScript SDK: a session in acceptEdits mode whose model
// enters plan mode goes back to acceptEdits when canUseTool approves the
// plan; the SDK yields the status messages that tell the client so, and
// the write that follows is not put to canUseTool.
func TestTypeScriptSDKApprovedPlanReturnsToTheModeBefore(t *testing.T) {
	sb := e2etest.NewSandbox(t, "")
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_enter", "EnterPlanMode", map[string]any{})),
		llmtest.Calls(llmtest.ToolUse("toolu_plan", "ExitPlanMode", map[string]any{"plan": "1. write b.txt"})),
		llmtest.Calls(llmtest.ToolUse("toolu_w", "Write", map[string]any{"file_path": filepath.Join(sb.Dir, "b.txt"), "content": "b\n"})),
		llmtest.Reply("Written."))
	sb.BaseURL = srv.URL
	for i, e := range sb.Env {
		if strings.HasPrefix(e, "ANTHROPIC_BASE_URL=") {
			sb.Env[i] = "ANTHROPIC_BASE_URL=" + srv.URL
		}
	}
	msgs, summary := runScript(t, sb, "plan.mjs", "")
	if summary["error"] != nil {
		t.Fatalf("the script failed: %v", summary["error"])
	}
	if got := js(summary["asks"]); got != `["ExitPlanMode"]` {
		t.Errorf("canUseTool was asked about %s, want only ExitPlanMode", got)
	}
	var modes []string
	for _, m := range ofType(msgs, "system", "status") {
		modes = append(modes, m["permissionMode"].(string))
	}
	if strings.Join(modes, ",") != "plan,acceptEdits" {
		t.Errorf("status messages told the modes %v, want plan then acceptEdits", modes)
	}
	if data, err := os.ReadFile(filepath.Join(sb.Dir, "b.txt")); err != nil || string(data) != "b\n" {
		t.Errorf("b.txt = %q, %v", data, err)
	}
}
