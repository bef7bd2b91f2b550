package tui

import (
	tea "charm.land/bubbletea/v2"

	"encoding/json"
	"strings"
	"testing"

	"reins/internal/engine"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
	"reins/internal/tools/askuser"
	"reins/internal/tools/plan"
)

func TestPromptShowsStreamedTextRenderedAsMarkdown(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("Here is **bold** and a list:\n\n- one\n- two\n")}, harnessOpts{})
	h.typeText("hello there")
	h.key("enter")
	h.waitFor("> hello there")
	// Rendered Markdown: the emphasis markers are gone, the list has bullets.
	h.waitUntil("rendered reply", func(s string) bool {
		return strings.Contains(s, "Here is bold and a list") && strings.Contains(s, "• one")
	})
	if got := h.requests(1)[0].LastUserText(); !strings.Contains(got, "hello there") {
		t.Errorf("request text = %q", got)
	}
}

func TestPermissionDialogAllowsOnceAndShowsTheDiff(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/p/main.go", "old_string": "var x = 1", "new_string": "var x = 2"})),
		llmtest.Reply("changed it"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}})
	h.typeText("change x")
	h.key("enter")
	h.waitUntil("permission dialog", func(s string) bool {
		return strings.Contains(s, "Edit file") && strings.Contains(s, "Do you want to make this edit to main.go?") && strings.Contains(s, "2. Yes, allow all edits during this session (shift+tab)")
	})
	h.key("1")
	h.waitUntil("the diff of the result", func(s string) bool {
		return strings.Contains(s, "Updated /p/main.go with 1 addition and 1 removal") &&
			strings.Contains(s, "-var x = 1") && strings.Contains(s, "+var x = 2")
	})
	h.waitFor("changed it")
	rs := h.requests(2)
	if res := rs[1].ToolResults(); len(res) != 1 || res[0].IsError {
		t.Fatalf("tool results = %+v", res)
	}
}

func TestPermissionDialogDeniesWithAMessageForTheModel(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"})),
		llmtest.Reply("ok, I will not"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}})
	h.typeText("edit a")
	h.key("enter")
	h.waitFor("Do you want to make this edit to a.go?")
	h.key("3")
	h.waitFor("what should reins do instead?")
	h.typeText("use b.go instead")
	h.key("enter")
	h.waitFor("ok, I will not")
	res := h.requests(2)[1].ToolResults()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "use b.go instead") {
		t.Fatalf("tool result = %+v", res)
	}
}

func TestPermissionDialogRemembersForTheSessionWithTheRuleShown(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"})),
		llmtest.Reply("done"),
	}
	var got []string
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}})
	h.typeText("edit")
	h.key("enter")
	h.waitFor("Do you want to make this edit to a.go?")
	// The second answer carries the gate's suggestion, accept-edits mode
	// for the session, not a rule allowing every Edit.
	var ups []engine.Suggestion
	h.do(func(m *Model) {
		if d, ok := m.dialog.(*permissionDialog); ok {
			ups = d.choices[1].updates
		}
	})
	for _, u := range ups {
		got = append(got, u.Destination+":"+u.Type+":"+u.Mode+":"+strings.Join(u.Rules, ","))
	}
	if strings.Join(got, ";") != "session:setMode:acceptEdits:" {
		t.Fatalf("updates = %v", got)
	}
	h.key("2")
	h.waitFor("done")
}

func TestAskUserQuestionIsAnsweredFromTheDialog(t *testing.T) {
	input := map[string]any{"questions": []map[string]any{{
		"question": "Which database?", "header": "Database", "multiSelect": false,
		"options": []map[string]any{{"label": "Postgres", "description": "a server"}, {"label": "SQLite", "description": "a file"}},
	}}}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("q1", "AskUserQuestion", input)),
		llmtest.Reply("SQLite it is"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{askuser.New()}})
	h.typeText("set up storage")
	h.key("enter")
	h.waitUntil("question dialog", func(s string) bool {
		return strings.Contains(s, "Which database?") && strings.Contains(s, "2. SQLite") && strings.Contains(s, "a file")
	})
	h.key("down")
	h.key("enter")
	h.waitFor("SQLite it is")
	res := h.requests(2)[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].ResultText(), "Which database? → SQLite") {
		t.Fatalf("tool result = %+v", res)
	}
}

func TestAskUserQuestionAcceptsTypedAnswerAndMultiSelect(t *testing.T) {
	input := map[string]any{"questions": []map[string]any{
		{"question": "Which parts?", "header": "Scope", "multiSelect": true,
			"options": []map[string]any{{"label": "API", "description": ""}, {"label": "UI", "description": ""}, {"label": "Docs", "description": ""}}},
		{"question": "Deadline?", "header": "When", "multiSelect": false,
			"options": []map[string]any{{"label": "Today", "description": ""}, {"label": "This week", "description": ""}}},
	}}
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("q1", "AskUserQuestion", input)), llmtest.Reply("noted")}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{askuser.New()}})
	h.typeText("plan it")
	h.key("enter")
	h.waitFor("Which parts?")
	h.key("space") // API
	h.key("down")
	h.key("down")
	h.key("space") // Docs
	h.key("enter")
	h.waitFor("Deadline?")
	h.key("3") // type something else
	h.typeText("next month")
	h.key("enter")
	h.waitFor("noted")
	var in askuser.Input
	var text string
	for _, m := range h.requests(2)[1].Messages {
		for _, b := range m.Content {
			if b.Type == "tool_use" && b.Name == "AskUserQuestion" {
				json.Unmarshal(b.Input, &in)
			}
		}
	}
	text = h.requests(2)[1].ToolResults()[0].ResultText()
	if !strings.Contains(text, "Which parts? → API, Docs") || !strings.Contains(text, "Deadline? → next month") {
		t.Fatalf("result = %q", text)
	}
}

func TestExitPlanModeApprovalSetsTheChosenMode(t *testing.T) {
	mode := &fakeMode{mode: "plan"}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "1. Add a flag\n2. Test it"})),
		llmtest.Reply("starting"),
	}
	h := newHarness(t, turns, harnessOpts{mode: mode, tools: []tool.Tool{plan.NewExit(mode)}})
	h.typeText("make a plan")
	h.key("enter")
	h.waitUntil("plan dialog", func(s string) bool {
		return strings.Contains(s, "Add a flag") && strings.Contains(s, "1. Yes, and auto-accept edits")
	})
	h.key("1")
	h.waitFor("User approved the plan")
	h.waitFor("starting")
	if got := mode.Mode(); got != "acceptEdits" {
		t.Fatalf("mode = %q, want acceptEdits", got)
	}
}

func TestExitPlanModeKeepPlanningSendsFeedback(t *testing.T) {
	mode := &fakeMode{mode: "plan"}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("p1", "ExitPlanMode", map[string]any{"plan": "Rewrite everything"})),
		llmtest.Reply("revising"),
	}
	h := newHarness(t, turns, harnessOpts{mode: mode, tools: []tool.Tool{plan.NewExit(mode)}})
	h.typeText("plan")
	h.key("enter")
	h.waitFor("No, keep planning")
	h.key("3")
	h.typeText("smaller steps")
	h.key("enter")
	h.waitFor("revising")
	res := h.requests(2)[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].ResultText(), "smaller steps") {
		t.Fatalf("result = %+v", res)
	}
	if mode.Mode() != "plan" {
		t.Fatalf("mode = %q, want plan", mode.Mode())
	}
}

func TestEscInterruptsARunningTool(t *testing.T) {
	slow := &slowTool{started: make(chan struct{})}
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{}))}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("wait")
	h.key("enter")
	<-slow.started
	h.waitUntil("running tool with spinner", func(s string) bool {
		return strings.Contains(s, "Slow") && strings.Contains(s, "esc to interrupt")
	})
	h.key("esc")
	h.waitFor("Interrupted")
	h.waitUntil("editor back", func(s string) bool { return strings.Contains(s, "Try \"explain this project\"") })
}

func TestMessagesTypedDuringATurnAreQueued(t *testing.T) {
	slow := &slowTool{started: make(chan struct{}), release: make(chan struct{})}
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("s1", "Slow", map[string]any{})),
		llmtest.Reply("saw your note"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{slow}})
	h.typeText("start")
	h.key("enter")
	<-slow.started
	h.typeText("also check the tests")
	h.key("enter")
	h.waitFor("also check the tests  (queued)")
	close(slow.release)
	h.waitFor("> also check the tests")
	h.waitFor("saw your note")
	found := false
	for _, m := range h.requests(2)[1].Messages {
		for _, b := range m.Content {
			if b.Type == "text" && b.Text == "also check the tests" {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("the queued message was not sent to the model")
	}
}

func TestShiftTabCyclesPermissionModes(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { o.BypassAvailable = true }})
	want := []string{"acceptEdits", "plan", "bypassPermissions", "default"}
	labels := []string{"accept edits on", "plan mode on", "bypass permissions on", ""}
	for i, w := range want {
		h.key("shift+tab")
		if labels[i] != "" {
			h.waitFor(labels[i])
		}
		h.waitUntil("mode "+w, func(string) bool { return h.mode.Mode() == w })
	}
}

func TestADialogRingsTheBell(t *testing.T) {
	turns := []llmtest.Turn{
		llmtest.Calls(llmtest.ToolUse("t1", "Edit", map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b"})),
		llmtest.Reply("ok"),
	}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{fakeEdit{}}, opts: func(o *Options) { o.Notify = "bell" }})
	h.typeText("edit")
	h.key("enter")
	h.waitFor("Do you want to make this edit to a.go?")
	h.waitUntil("bell", func(string) bool { return strings.Contains(h.raw.String(), "\a") })
	h.key("1")
	h.waitFor("ok")
}

func TestPasteInTheEditorIsCollapsedThenSentWhole(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("read it")}, harnessOpts{})
	big := strings.TrimSuffix(strings.Repeat("log line\n", 40), "\n")
	h.typeText("why does this fail: ")
	h.tm.Send(tea.PasteMsg{Content: big})
	// The input holds the placeholder. (Read from the editor: on screen
	// the line may be drawn in two frames, the second only its changed
	// end, so the output need not hold it in one piece.)
	h.check("the placeholder in the input", func(m *Model) bool {
		return m.ed.value() == "why does this fail: [Pasted text #1 +39 lines]"
	})
	h.key("enter")
	h.waitFor("read it")
	if got := h.requests(1)[0].LastUserText(); strings.Count(got, "log line") != 40 {
		t.Fatalf("the model got %q", got)
	}
	// The screen shows the prompt as sent, not the placeholder.
	h.waitFor("> why does this fail: log line")
}

func TestCtrlRFindsAnEarlierPromptInTheUI(t *testing.T) {
	h := newHarness(t, []llmtest.Turn{llmtest.Reply("one"), llmtest.Reply("two"), llmtest.Reply("three")}, harnessOpts{})
	for i, p := range []string{"deploy the staging build", "check the logs"} {
		h.typeText(p)
		h.key("enter")
		// The request, then the turn's end: checking !running alone
		// could pass before the turn began.
		h.requests(i + 1)
		h.check("turn over", func(m *Model) bool { return !m.running })
	}
	h.key("ctrl+r")
	h.typeText("stag")
	h.waitFor("search history: ")
	h.check("a match", func(m *Model) bool {
		return m.ed.search != nil && m.ed.search.query == "stag" && m.ed.search.match >= 0 && m.ed.hist.entries[m.ed.search.match] == "deploy the staging build"
	})
	h.key("tab")
	h.check("recalled", func(m *Model) bool { return m.ed.value() == "deploy the staging build" })
}
