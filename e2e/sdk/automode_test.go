package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/automode"
	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// In an SDK session switched to auto mode with set_permission_mode, the
// classifier's block is an error result listed in permission_denials, and
// when the classifier cannot answer the question goes to the client
// (can_use_tool) instead.
func TestAutoModeThroughSetPermissionMode(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "tar -cf a.tar a.txt"})),
		llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
			Blocks: []llmtest.Block{llmtest.ToolUse("v1", automode.VerdictTool, map[string]string{"decision": "block", "reason": "archives are not wanted here"})}},
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]any{"command": "tar -cf b.tar a.txt"})),
		llmtest.Turn{Side: true, MatchText: automode.VerdictTool, Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "no"}},
		llmtest.Reply("Done."))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "a.txt", "a")
	c := start(t, sb, nil, "--permission-prompt-tool", "stdio")
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.request("mode-1", `{"subtype":"set_permission_mode","mode":"auto"}`)
	c.user("Archive a.txt.")
	var asked []string
	var initMode string
	var denials []map[string]any
	var blocked string
	var denied []string
	for {
		line := c.next()
		var v struct {
			Type      string `json:"type"`
			Subtype   string `json:"subtype"`
			RequestID string `json:"request_id"`
			Mode      string `json:"permissionMode"`
			Request   struct {
				Subtype  string          `json:"subtype"`
				ToolName string          `json:"tool_name"`
				Input    json.RawMessage `json:"input"`
			} `json:"request"`
			Denials []map[string]any `json:"permission_denials"`
			Message struct {
				Content []struct {
					ToolUseID string          `json:"tool_use_id"`
					IsError   bool            `json:"is_error"`
					Content   json.RawMessage `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			continue
		}
		switch {
		case v.Type == "system" && v.Subtype == "init":
			initMode = v.Mode
		case v.Type == "system" && v.Subtype == "permission_denied":
			denied = append(denied, line)
		case v.Type == "control_request" && v.Request.Subtype == "can_use_tool":
			asked = append(asked, string(v.Request.Input))
			c.answer(v.RequestID, `{"behavior":"allow","updatedInput":`+string(v.Request.Input)+`}`)
		case v.Type == "user":
			for _, b := range v.Message.Content {
				if b.ToolUseID == "toolu_1" && b.IsError {
					blocked = string(b.Content)
				}
			}
		}
		if v.Type == "result" {
			denials = v.Denials
			break
		}
	}
	if initMode != "auto" {
		t.Errorf("init permissionMode = %q, want auto", initMode)
	}
	if !strings.Contains(blocked, "Auto mode blocked this Bash call") || !strings.Contains(blocked, "archives are not wanted here") {
		t.Errorf("toolu_1 result = %s", blocked)
	}
	if len(denials) != 1 || denials[0]["tool_use_id"] != "toolu_1" {
		t.Errorf("permission_denials = %v", denials)
	}
	if len(denied) != 1 || !strings.Contains(denied[0], `"tool_use_id":"toolu_1"`) || !strings.Contains(denied[0], `"decision_reason_type":"classifier"`) ||
		!strings.Contains(denied[0], `"tool_name":"Bash"`) || !strings.Contains(denied[0], "archives are not wanted here") {
		t.Errorf("permission_denied messages = %q, want one for the classifier's block", denied)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "b.tar") {
		t.Errorf("can_use_tool questions = %v, want one for the call the classifier could not review", asked)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "a.tar")); err == nil {
		t.Error("the blocked command ran")
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "b.tar")); err != nil {
		t.Errorf("the command the client approved did not run: %v", err)
	}
}

func TestTypeScriptAgentSDKRunsInAutoMode(t *testing.T) {
	const shout = "mcp__tools__shout"
	verdict := func(decision, reason string) llmtest.Turn {
		return llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
			Blocks: []llmtest.Block{llmtest.ToolUse("v", automode.VerdictTool, map[string]string{"decision": decision, "reason": reason})}}
	}
	srv := server(t,
		call("toolu_1", shout, `{"text":"hi"}`, 100, 10),
		verdict("allow", "harmless"),
		call("toolu_2", shout, `{"text":"secret"}`, 110, 10),
		verdict("block", "it would shout a secret"),
		reply("All done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runAgent(t, sb, "auto-mode", "ENABLE_TOOL_SEARCH=false")

	inits := ofType(msgs, "system", "init")
	if len(inits) != 1 || inits[0]["permissionMode"] != "auto" {
		t.Fatalf("init messages: %v", inits)
	}
	if got := js(summary["asks"]); got != `[]` && got != `null` {
		t.Errorf("canUseTool was asked although the classifier decided: %s", got)
	}
	if got := js(summary["denied"]); got != `[{"reason":"it would shout a secret","tool":"mcp__tools__shout"}]` {
		t.Errorf("the PermissionDenied hook saw %s", got)
	}
	last := msgs[len(msgs)-1]
	if last["type"] != "result" || js(last["permission_denials"]) != `[{"tool_input":{"text":"secret"},"tool_name":"mcp__tools__shout","tool_use_id":"toolu_2"}]` {
		t.Errorf("last message %s", js(last))
	}
	if got := srv.Requests()[2].ToolResults(); len(got) != 1 || got[0].ResultText() != "HI!" {
		t.Errorf("the allowed call's result was %+v", got)
	}
}
