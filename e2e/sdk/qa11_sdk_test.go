package sdk_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"reins/internal/e2etest"
)

// outputFormat json_schema: the StructuredOutput call ends the turn, as in
// Claude Code, so the model is not asked again, and the result's text is
// the output as JSON. reins sent one more request and the result text was
// whatever the model said after the call.
func TestQA11OutputFormatStructuredOutputEndsTheTurn(t *testing.T) {
	srv := server(t, call("toolu_1", "StructuredOutput", `{"n": 3}`, 100, 5), reply("Anything else?", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runScript(t, sb, "qa11.mjs", "schema")
	res := ofType(msgs, "result", "")
	if len(res) != 1 {
		t.Fatalf("results %s", js(res))
	}
	r := res[0]
	if r["subtype"] != "success" || js(r["structured_output"]) != `{"n":3}` || r["result"] != `{"n":3}` || r["stop_reason"] != "tool_use" {
		t.Errorf("result %s, want success with the output as structured_output and as its text", js(r))
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: the call ends the turn", n)
	}
}

// An initialize sent while a can_use_tool question waits (a client that
// reconnects to the session) is answered with the questions still
// waiting, as they were sent, so that it can answer them; reins's
// answers had no pending_permission_requests, which the SDK reads as a
// CLI too old to say.
func TestQA11InitializeListsThePermissionQuestionsStillWaiting(t *testing.T) {
	srv := server(t, call("toolu_1", echoTool, `{"text":"hi"}`, 100, 10), reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	mcp := &fakeMCP{name: "sdk-tools"}
	c := start(t, sb, mcp, append(sdkMCPArgs, "--permission-prompt-tool", "stdio")...)
	c.request("init-1", `{"subtype":"initialize","hooks":null}`)
	c.expect(initOK("init-1", initResponse("default")))

	c.user("Echo something.")
	c.expect(stateLine("running"))
	c.expect(initLine(initSpec{cwd: sb.Dir, model: opus, mode: "default", tools: echoTool, mcp: echoServers}))
	c.expect(assistantLine("msg_001", opus, toolUseBlock("toolu_1", echoTool, `{"text":"hi"}`), 100))
	c.expect(stateLine("requires_action"))
	ask := canUseTool("ask1", echoTool, "toolu_1", `{"text":"hi"}`)
	c.expect(ask)
	asked := c.get("ask1")

	c.request("init-2", `{"subtype":"initialize","hooks":null}`)
	line := c.next()
	var v struct {
		Response struct {
			RequestID string            `json:"request_id"`
			Pending   []json.RawMessage `json:"pending_permission_requests"`
			Dialogs   []json.RawMessage `json:"pending_user_dialog_requests"`
		} `json:"response"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil || v.Response.RequestID != "init-2" {
		t.Fatalf("want the answer to init-2, got %s", line)
	}
	if len(v.Response.Pending) != 1 || v.Response.Dialogs == nil || len(v.Response.Dialogs) != 0 {
		t.Fatalf("pending %s, dialogs %s; want the one question and no dialogs", v.Response.Pending, v.Response.Dialogs)
	}
	if err := newMatcher(c.m.vars["session"].(string)).match(strings.Replace(ask, `"<$ask1>"`, q(asked), 1), string(v.Response.Pending[0])); err != nil {
		t.Errorf("the pending question is not the one sent: %v", err)
	}

	c.answer(asked, `{"behavior":"allow","updatedInput":{"text":"hi"}}`)
	c.expect(stateLine("running"))
	c.expect(toolResultLine("toolu_1", "echo: hi", false, `[{"type":"text","text":"echo: hi"}]`))
	c.expect(assistantLine("msg_002", opus, textBlock("Done."), 120))
	c.expect(resultLine(resultSpec{result: "Done.", stop: "end_turn", turns: 2, in: 220, out: 15, terminal: "completed"}))
	c.expect(stateLine("idle"))
	c.closeInput()
	if code := c.wait(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// excludeDynamicSections (with the preset prompt) keeps the per-user
// parts (the working folder and the git snapshot) out of the system
// prompt, so that it is the same for every user and its cache can be
// shared; they reach the model at the front of the conversation instead.
// reins ignored the option and the working folder stayed in the system
// prompt.
func TestQA11ExcludeDynamicSectionsMovesTheWorkingFolderOutOfTheSystemPrompt(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		inSystem bool
	}{{"preset", true}, {"exclude", false}} {
		t.Run(tc.scenario, func(t *testing.T) {
			srv := server(t, reply("Hello.", 100, 5))
			sb := e2etest.NewSandbox(t, srv.URL)
			if err := exec.Command("git", "-C", sb.Dir, "init", "-q").Run(); err != nil {
				t.Fatalf("git init: %v", err)
			}
			runScript(t, sb, "qa11.mjs", tc.scenario)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			system := strings.Join(systemTexts(t, reqs[0].System), "\n")
			msgs, _ := json.Marshal(reqs[0].Messages)
			if got := strings.Contains(system, sb.Dir); got != tc.inSystem {
				t.Errorf("working folder in the system prompt: %v, want %v:\n%s", got, tc.inSystem, system)
			}
			if got := strings.Contains(system, "gitStatus"); got != tc.inSystem {
				t.Errorf("git snapshot in the system prompt: %v, want %v", got, tc.inSystem)
			}
			if !tc.inSystem && (!strings.Contains(string(msgs), "Working folder: "+sb.Dir) || !strings.Contains(string(msgs), "gitStatus")) {
				t.Errorf("the conversation does not carry the working folder and git snapshot: %s", msgs)
			}
		})
	}
}
