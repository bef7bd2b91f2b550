package sdk_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"reins/internal/e2etest"
)

// get_context_usage lists the MCP tools the model may call (with the
// normalised server name and an estimate of their schema's size) and the
// custom agent types the Agent tool can start (with where they were
// defined), and each category carries Claude Code's stable id and kind.
func TestQA9ContextUsageListsMCPToolsAndCustomAgents(t *testing.T) {
	srv := server(t, reply("Hello.", 50000, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	agentFile := sb.Write(t, ".claude/agents/reviewer.md",
		"---\nname: reviewer\ndescription: Reviews a change for bugs and style.\n---\nYou review code.\n")
	c := start(t, sb, &fakeMCP{name: "sdk-tools"}, sdkMCPArgs...)
	c.user("Hi.")
	c.nextUntil(`"type":"result"`)
	c.request("ctx-1", `{"subtype":"get_context_usage"}`)
	line := c.nextUntil(`"request_id":"ctx-1"`)
	raw, _ := json.Marshal(line["response"].(map[string]any)["response"])
	var got struct {
		Categories []struct {
			ID, Name, Kind string
			Tokens         int
		}
		MCPTools []struct {
			Name, ServerName string
			Tokens           int
			IsLoaded         bool
		}
		Agents []struct {
			AgentType, Source, Path string
			Tokens                  int
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if len(got.MCPTools) != 1 || got.MCPTools[0].Name != echoTool || got.MCPTools[0].ServerName != "sdk-tools" ||
		got.MCPTools[0].Tokens <= 0 || !got.MCPTools[0].IsLoaded {
		t.Errorf("mcpTools = %+v, want %s of sdk-tools, loaded, with its size", got.MCPTools, echoTool)
	}
	if len(got.Agents) != 1 || got.Agents[0].AgentType != "reviewer" || got.Agents[0].Source != "projectSettings" ||
		got.Agents[0].Tokens <= 0 || filepath.Clean(got.Agents[0].Path) != filepath.Clean(agentFile) {
		t.Errorf("agents = %+v, want the project's reviewer (%s) alone", got.Agents, agentFile)
	}
	kinds := map[string]string{}
	for _, cat := range got.Categories {
		kinds[cat.ID] = cat.Kind
	}
	for id, kind := range map[string]string{"system_prompt": "used", "mcp_tools": "used", "messages": "used", "free_space": "free"} {
		if kinds[id] != kind {
			t.Errorf("category %s has kind %q, want %q (categories %+v)", id, kinds[id], kind, got.Categories)
		}
	}
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// interruptedLine is the user line carrying the message an interrupted
// turn leaves in the conversation.
func interruptedLine(text string) string {
	return `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}]},` +
		`"parent_tool_use_id":null,"session_id":"<session>","uuid":"<uuid>","timestamp":"<string>"}`
}

// The result of a turn echoes the uuid the client gave its user message
// (user_message_uuid, and in user_message_uuids), so that a client can
// match each result to the message it answers; a message without a uuid
// gets a result without them.
func TestQA9ResultEchoesTheClientsUserMessageUUID(t *testing.T) {
	srv := server(t, reply("One.", 100, 10), reply("Two.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	const id = "0b9c4f3e-5a2d-4c1b-9e8f-7a6b5c4d3e2f"
	c.send(`{"type":"user","session_id":"","uuid":"` + id + `","message":{"role":"user","content":"First."},"parent_tool_use_id":null}`)
	res := c.nextUntil(`"type":"result"`)
	if res["user_message_uuid"] != id {
		t.Errorf("user_message_uuid = %v, want %s", res["user_message_uuid"], id)
	}
	if ids, _ := res["user_message_uuids"].([]any); len(ids) != 1 || ids[0] != id {
		t.Errorf("user_message_uuids = %v, want [%s]", res["user_message_uuids"], id)
	}
	c.user("Second.")
	res = c.nextUntil(`"type":"result"`)
	if _, ok := res["user_message_uuid"]; ok {
		t.Errorf("a message without a uuid got user_message_uuid %v", res["user_message_uuid"])
	}
	c.nextUntil(`"state":"idle"`)
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// Each result line carries result_index, numbering the results the
// process wrote from 0, so that a client sees when one was lost.
func TestQA9ResultsAreNumberedInTheOrderWritten(t *testing.T) {
	srv := server(t, reply("One.", 100, 10), reply("Two.", 100, 10))
	sb := e2etest.NewSandbox(t, srv.URL)
	c := start(t, sb, nil)
	for want, prompt := range []string{"First.", "Second."} {
		c.user(prompt)
		res := c.nextUntil(`"type":"result"`)
		if got, ok := res["result_index"].(float64); !ok || int(got) != want {
			t.Errorf("result %d: result_index = %v, want %d", want, res["result_index"], want)
		}
	}
	c.nextUntil(`"state":"idle"`)
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
