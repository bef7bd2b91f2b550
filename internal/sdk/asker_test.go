package sdk

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tool"
)

func TestPermissionAnswersBecomeEngineAnswers(t *testing.T) {
	cases := []struct {
		name, raw string
		want      engine.Answer
		err       string
	}{
		{"allow as is", `{"behavior":"allow"}`, engine.Answer{Allow: true, Source: "user_temporary"}, ""},
		{"allow classified", `{"behavior":"allow","decisionClassification":"user_permanent"}`, engine.Answer{Allow: true, Source: "user_permanent"}, ""},
		{"allow with an unknown classification", `{"behavior":"allow","decisionClassification":"whoever"}`, engine.Answer{Allow: true, Source: "user_temporary"}, ""},
		{"allow with changed input", `{"behavior":"allow","updatedInput":{"command":"ls -a"},"toolUseID":"t"}`,
			engine.Answer{Allow: true, UpdatedInput: json.RawMessage(`{"command":"ls -a"}`), Source: "user_temporary"}, ""},
		{"allow remembering a rule", `{"behavior":"allow","updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test:*"},{"toolName":"Read"}],"behavior":"allow","destination":"session"}]}`,
			engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "addRules", Rules: []string{"Bash(npm test:*)", "Read"}, Behavior: "allow", Destination: "session"}}, Source: "user_temporary"}, ""},
		{"allow switching mode", `{"behavior":"allow","updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`,
			engine.Answer{Allow: true, Updates: []engine.Suggestion{{Type: "setMode", Mode: "acceptEdits", Destination: "session"}}, Source: "user_temporary"}, ""},
		{"deny with message", `{"behavior":"deny","message":"not now"}`, engine.Answer{Message: "not now", Source: "user_reject"}, ""},
		{"deny and interrupt", `{"behavior":"deny","message":"stop","interrupt":true}`, engine.Answer{Message: RejectedText, Interrupt: true, Source: "user_abort"}, ""},
		{"deny without message", `{"behavior":"deny"}`, engine.Answer{Message: "The user denied this tool call.", Source: "user_reject"}, ""},
		{"unknown behavior", `{"behavior":"maybe"}`, engine.Answer{}, `behavior "maybe" is neither`},
		{"input not an object", `{"behavior":"allow","updatedInput":"ls"}`, engine.Answer{}, "updatedInput must be an object"},
		{"not an object", `[1]`, engine.Answer{}, "not a permission result"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parsePermissionAnswer(json.RawMessage(c.raw))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestSuggestionsAreSpelledTheProtocolWay(t *testing.T) {
	sg := engine.Suggestion{Type: "addRules", Rules: []string{"Bash(git log *)", "WebFetch"}, Behavior: "allow", Destination: "localSettings"}
	b, _ := json.Marshal(toWire(sg))
	want := `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"git log *"},{"toolName":"WebFetch"}],"behavior":"allow","destination":"localSettings"}`
	if string(b) != want {
		t.Errorf("wire form %s\nwant        %s", b, want)
	}
	if back := fromWire(toWire(sg)); !reflect.DeepEqual(back, sg) {
		t.Errorf("round trip %+v, want %+v", back, sg)
	}
}

// answerTool is a permission prompt tool answering with fixed text.
type answerTool struct {
	tool.Defaults
	text  string
	isErr bool
	got   json.RawMessage
}

func (a *answerTool) Name() string                 { return "mcp__perm__ask" }
func (a *answerTool) Description() string          { return "asks" }
func (a *answerTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (a *answerTool) Call(_ context.Context, _ *tool.Call, in json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	a.got = in
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(a.text)}, IsError: a.isErr}, nil
}

func TestToolAskerAsksAPermissionPromptTool(t *testing.T) {
	pt := &answerTool{text: `{"behavior":"allow","updatedInput":{"command":"ls"}}`}
	a := &ToolAsker{Name: pt.Name(), Lookup: func(n string) (tool.Tool, bool) { return pt, n == pt.Name() }}
	ans, err := a.Ask(context.Background(), engine.Question{ToolName: "Bash", ToolUseID: "toolu_1", Input: json.RawMessage(`{"command":"rm -rf /"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Allow || string(ans.UpdatedInput) != `{"command":"ls"}` {
		t.Errorf("answer %+v", ans)
	}
	if string(pt.got) != `{"input":{"command":"rm -rf /"},"tool_name":"Bash","tool_use_id":"toolu_1"}` {
		t.Errorf("the tool was given %s", pt.got)
	}
	pt.text, pt.isErr = "crashed", true
	if _, err := a.Ask(context.Background(), engine.Question{ToolName: "Bash"}); err == nil || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("a failing prompt tool gave %v", err)
	}
	missing := &ToolAsker{Name: "mcp__gone__ask", Lookup: func(string) (tool.Tool, bool) { return nil, false }}
	if _, err := missing.Ask(context.Background(), engine.Question{}); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("a missing prompt tool gave %v", err)
	}
}

func TestStructuredSchemaIsCheckedAndNonObjectsWrapped(t *testing.T) {
	cases := []struct {
		schema  string
		wrapped bool
		err     string
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, false, ""},
		{`{"properties":{"a":{"type":"string"}}}`, false, ""},
		{`{"type":"array","items":{"type":"integer"}}`, true, ""},
		{`{"type":"string"}`, true, ""},
		{`[1]`, false, "must be a JSON object"},
		{`{"type":7}`, false, "not valid"},
		{`{"type":"object","required":"a"}`, false, "not valid"},
	}
	for _, c := range cases {
		_, wrapped, err := compileSchema(json.RawMessage(c.schema))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.schema, err, c.err)
			}
			continue
		}
		if err != nil || wrapped != c.wrapped {
			t.Errorf("%s: wrapped %v err %v, want wrapped %v", c.schema, wrapped, err, c.wrapped)
		}
	}
}

func TestStructuredToolKeepsTheLastOutputOfTheTurn(t *testing.T) {
	st, err := newStructuredTool(json.RawMessage(`{"type":"integer"}`))
	if err != nil {
		t.Fatal(err)
	}
	var schemas tool.Schemas
	if err := schemas.Validate(st.InputSchema(), json.RawMessage(`{"result":"x"}`)); err == nil {
		t.Error("a string passed the wrapped integer schema")
	}
	if _, ok := st.take(); ok {
		t.Error("output before any call")
	}
	res, err := st.Call(context.Background(), &tool.Call{}, json.RawMessage(`{"result":7}`), nil)
	if err != nil || res.IsError {
		t.Fatalf("Call = %+v, %v", res, err)
	}
	if v, ok := st.take(); !ok || string(v) != "7" {
		t.Errorf("take = %s, %v; want the unwrapped 7", v, ok)
	}
	st.reset()
	if _, ok := st.take(); ok {
		t.Error("output survived reset")
	}
}
