package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func TestEffortReachesOnlyModelsThatTakeIt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		effort string
		beta   bool
	}{
		{"opus 5.5 at its default", nil, "medium", true},
		{"opus 5.5 with --effort", []string{"--effort", "high"}, "high", true},
		{"xhigh runs as high on opus 4.5", []string{"--effort", "xhigh", "--model", "claude-opus-4-5"}, "high", true},
		{"sonnet 4.5 refuses effort", []string{"--effort", "high", "--model", "sonnet"}, "", false},
		{"haiku 4.5 refuses effort", []string{"--effort", "low", "--model", "haiku"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("ok"))
			sb := e2etest.NewSandbox(t, srv.URL)
			if r := sb.Run(t, "", append([]string{"-p", "hi"}, tc.args...)...); r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			effort, beta := srv.Requests()[0].Effort()
			if effort != tc.effort || beta != tc.beta {
				t.Errorf("effort %q beta %v, want %q %v", effort, beta, tc.effort, tc.beta)
			}
		})
	}
}

const mainAgentJSON = `{"careful":{"description":"Careful","prompt":"You are careful.","effort":"xhigh"}}`

func TestEffortSourcesEnvThenFlagThenSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings string
		env      string
		args     []string
		want     string
	}{
		{"settings", `{"effortLevel":"low"}`, "", nil, "low"},
		{"the flag beats settings", `{"effortLevel":"low"}`, "", []string{"--effort", "max"}, "max"},
		{"the environment beats the flag", `{"effortLevel":"low"}`, "xhigh", []string{"--effort", "max"}, "xhigh"},
		{"auto in the environment is the model's default", `{"effortLevel":"low"}`, "auto", []string{"--effort", "max"}, "medium"},
		{"a bad settings value is skipped", `{"effortLevel":"huge"}`, "", nil, "medium"},
		{"the main agent's frontmatter beats settings", `{"effortLevel":"low"}`, "", []string{"--agents", mainAgentJSON, "--agent", "careful"}, "xhigh"},
		{"the flag beats the main agent's frontmatter", `{"effortLevel":"low"}`, "", []string{"--agents", mainAgentJSON, "--agent", "careful", "--effort", "medium"}, "medium"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, llmtest.Reply("ok"))
			sb := e2etest.NewSandbox(t, srv.URL)
			sb.Write(t, ".claude/settings.json", tc.settings)
			if tc.env != "" {
				sb.Env = append(sb.Env, "CLAUDE_CODE_EFFORT_LEVEL="+tc.env)
			}
			r := sb.Run(t, "", append([]string{"-p", "hi"}, tc.args...)...)
			if r.Code != 0 {
				t.Fatalf("code %d: %s", r.Code, r.Stderr)
			}
			if effort, _ := srv.Requests()[0].Effort(); effort != tc.want {
				t.Errorf("effort %q, want %q", effort, tc.want)
			}
			if strings.Contains(tc.settings, "huge") && !(strings.Contains(r.Stderr, `effortLevel`) && strings.Contains(r.Stderr, `"huge"`) && strings.Contains(r.Stderr, "low, medium, high, xhigh, max")) {
				t.Errorf("no warning for the bad setting: %q", r.Stderr)
			}
		})
	}
}

func TestUnknownEffortIsAUsageErrorNamingTheLevels(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--effort", "extreme")
	if r.Code != 2 || !strings.Contains(r.Stderr, `--effort: effort level "extreme" is not one of low, medium, high, xhigh, max, or auto`) {
		t.Fatalf("code %d, stderr %q", r.Code, r.Stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestSubagentEffortFromItsCallElseItsDefinitionElseTheSession(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("delegate"), Blocks: []llmtest.Block{
			agentCall("toolu_a", "low job", "TASK-LOW: quick look", "", map[string]any{"effort": "low"}),
			agentCall("toolu_b", "deep job", "TASK-DEF: deep look", "deep", nil),
			agentCall("toolu_c", "plain job", "TASK-PLAIN: plain look", "", nil),
		}},
		llmtest.Turn{Match: isSubagent("TASK-LOW"), Blocks: []llmtest.Block{llmtest.Text("low done")}},
		llmtest.Turn{Match: isSubagent("TASK-DEF"), Blocks: []llmtest.Block{llmtest.Text("deep done")}},
		llmtest.Turn{Match: isSubagent("TASK-PLAIN"), Blocks: []llmtest.Block{llmtest.Text("plain done")}},
		llmtest.Turn{Match: isMain("low done"), Blocks: []llmtest.Block{llmtest.Text("All done.")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	agents := `{"deep":{"description":"Thinks hard","prompt":"You think hard.","effort":"max"}}`
	r := sb.Run(t, "", "-p", "delegate", "--effort", "high", "--agents", agents)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for marker, want := range map[string]string{"TASK-LOW": "low", "TASK-DEF": "max", "TASK-PLAIN": "high"} {
		reqs := requestsMatching(srv, isSubagent(marker))
		if len(reqs) != 1 {
			t.Fatalf("%s: %d requests", marker, len(reqs))
		}
		if effort, beta := reqs[0].Effort(); effort != want || !beta {
			t.Errorf("%s: effort %q beta %v, want %q", marker, effort, beta, want)
		}
	}
	if effort, _ := requestsMatching(srv, isMain("delegate"))[0].Effort(); effort != "high" {
		t.Errorf("main conversation effort %q", effort)
	}
}

func TestEffortEnvironmentOverridesASubagentsOwnLevel(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("delegate"), Blocks: []llmtest.Block{
			agentCall("toolu_a", "low job", "TASK-LOW: quick look", "", map[string]any{"effort": "low"})}},
		llmtest.Turn{Match: isSubagent("TASK-LOW"), Blocks: []llmtest.Block{llmtest.Text("low done")}},
		llmtest.Turn{Match: isMain("low done"), Blocks: []llmtest.Block{llmtest.Text("ok")}},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_EFFORT_LEVEL=max")
	if r := sb.Run(t, "", "-p", "delegate"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if effort, _ := requestsMatching(srv, isSubagent("TASK-LOW"))[0].Effort(); effort != "max" {
		t.Errorf("sub-agent effort %q, want the environment's max", effort)
	}
}

func TestThinkingDisplayFlag(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "hi", "--thinking", "adaptive", "--thinking-display", "omitted"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := string(srv.Requests()[0].Thinking); got != `{"type":"adaptive","display":"omitted"}` {
		t.Errorf("thinking %s", got)
	}
	r := sb.Run(t, "", "-p", "hi", "--thinking-display", "verbose")
	if r.Code != 2 || !strings.Contains(r.Stderr, "--thinking-display must be summarized or omitted") {
		t.Errorf("bad value: code %d, stderr %q", r.Code, r.Stderr)
	}
}

func sdkUserLine(text string) string {
	b, _ := json.Marshal(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": text}})
	return string(b) + "\n"
}

func TestEffortCommandChangesTheLevelFromTheNextRequest(t *testing.T) {
	srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"))
	sb := e2etest.NewSandbox(t, srv.URL)
	in := sdkUserLine("one") + sdkUserLine("/effort low") + sdkUserLine("two") + sdkUserLine("/effort")
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--effort", "high")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests: /effort went to the model?", len(reqs))
	}
	for i, want := range []string{"high", "low"} {
		if effort, _ := reqs[i].Effort(); effort != want {
			t.Errorf("request %d: effort %q, want %q", i+1, effort, want)
		}
	}
	if !strings.Contains(r.Stdout, "Effort set to low.") || !strings.Contains(r.Stdout, "Effort: low.") {
		t.Errorf("the command's output is missing: %s", r.Stdout)
	}
}

func TestEffortCommandCannotOverrideTheEnvironment(t *testing.T) {
	srv := server(t, llmtest.Reply("first"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Env = append(sb.Env, "CLAUDE_CODE_EFFORT_LEVEL=max")
	in := sdkUserLine("/effort low") + sdkUserLine("one")
	r := sb.Run(t, in, "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if effort, _ := srv.Requests()[0].Effort(); effort != "max" {
		t.Errorf("effort %q, want the environment's max", effort)
	}
	if !strings.Contains(r.Stdout, "CLAUDE_CODE_EFFORT_LEVEL=max is set and wins over /effort") {
		t.Errorf("no refusal in %s", r.Stdout)
	}
}

func TestSDKApplyFlagSettingsChangesTheEffort(t *testing.T) {
	srv := server(t, llmtest.Reply("first"), llmtest.Reply("second"))
	sb := e2etest.NewSandbox(t, srv.URL)
	p := startSDK(t, sb, "--effort", "high", "--thinking", "adaptive")
	p.send(sdkUserLine("one"))
	p.next("result")
	var answers []string
	for _, req := range []string{
		`{"type":"control_request","request_id":"r1","request":{"subtype":"apply_flag_settings","settings":{"effortLevel":"low"}}}`,
		`{"type":"control_request","request_id":"r2","request":{"subtype":"set_max_thinking_tokens","thinking_display":"omitted"}}`,
		`{"type":"control_request","request_id":"r3","request":{"subtype":"apply_flag_settings","settings":{"effortLevel":"huge"}}}`,
	} {
		p.send(req)
		resp := p.next("control_response")["response"].(map[string]any)
		answers = append(answers, resp["request_id"].(string)+" "+resp["subtype"].(string))
		if resp["request_id"] == "r3" && !strings.Contains(fmt.Sprint(resp["error"]), `effortLevel: unknown level "huge"`) {
			t.Errorf("r3 error %v", resp["error"])
		}
	}
	if strings.Join(answers, ",") != "r1 success,r2 success,r3 error" {
		t.Errorf("control responses %v", answers)
	}
	p.send(sdkUserLine("two"))
	p.next("result")
	p.finish()
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []string{"high", "low"} {
		if effort, _ := reqs[i].Effort(); effort != want {
			t.Errorf("request %d: effort %q, want %q", i+1, effort, want)
		}
	}
	if a, b := string(reqs[0].Thinking), string(reqs[1].Thinking); a != `{"type":"adaptive"}` || b != `{"type":"adaptive","display":"omitted"}` {
		t.Errorf("thinking %s then %s", a, b)
	}
}

func TestUltrathinkAsksForHighEffort(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	for _, args := range [][]string{{"-p", "ultrathink: why is the cache cold?"}, {"-p", "ultrathink please", "--effort", "max"}} {
		if r := sb.Run(t, "", args...); r.Code != 0 {
			t.Fatalf("code %d: %s", r.Code, r.Stderr)
		}
	}
	for i, want := range []string{"high", "max"} {
		if effort, _ := srv.Requests()[i].Effort(); effort != want {
			t.Errorf("run %d: effort %q, want %q", i+1, effort, want)
		}
	}
}
