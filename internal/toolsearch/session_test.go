package toolsearch

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/llm"
	"reins/internal/tool"
)

func coreTool(name string) tool.Tool {
	return &catTool{name: name, desc: "the " + name + " tool", schema: json.RawMessage(`{"type":"object","properties":{}}`)}
}

func mcpTool(name, desc string) tool.Tool {
	return &catTool{name: name, desc: desc, schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func names(ts []tool.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
	}
	return out
}

func TestToolSetSendsCoreToolsAndTheTwoSearchTools(t *testing.T) {
	s := NewSession(Options{})
	defer s.Close()
	all := []tool.Tool{coreTool("Bash"), coreTool("Read"), mcpTool("mcp__chat__send", "send a chat message"), mcpTool("mcp__db__query", "run SQL")}
	ts := s.ToolSet(all)
	want := "Bash,Read,SearchExtraTools,ExecuteExtraTool"
	if got := strings.Join(names(ts.Tools), ","); got != want {
		t.Errorf("callable tools = %s, want %s", got, want)
	}
	var specs []string
	for _, sp := range ts.Specs {
		specs = append(specs, sp.Name)
	}
	if got := strings.Join(specs, ","); got != want {
		t.Errorf("specs = %s, want %s", got, want)
	}
	hint, ok := ts.Deferred("mcp__chat__send")
	if !ok || !strings.Contains(hint, "SearchExtraTools") || !strings.Contains(hint, "ExecuteExtraTool") {
		t.Errorf("Deferred(mcp__chat__send) = %q, %v", hint, ok)
	}
	if _, ok := ts.Deferred("Bash"); ok {
		t.Error("Bash reported as deferred")
	}
}

func TestToolSetOffSendsEveryTool(t *testing.T) {
	s := NewSession(Options{Mode: Mode{Kind: Off}})
	defer s.Close()
	all := []tool.Tool{coreTool("Bash"), mcpTool("mcp__chat__send", "send")}
	ts := s.ToolSet(all)
	if got := strings.Join(names(ts.Tools), ","); got != "Bash,mcp__chat__send" || ts.Specs != nil || ts.Reminders != nil {
		t.Errorf("off mode: tools %s, specs %v", got, ts.Specs)
	}
}

func TestAutoModeDefersOnlyPastThreshold(t *testing.T) {
	big := mcpTool("mcp__big__tool", strings.Repeat("long description ", 600)) // ~10k chars, ~2.5k tokens
	tests := []struct {
		percent, window int
		want            bool
	}{
		{percent: 10, window: 200_000, want: false}, // 2.5k tokens < 20k
		{percent: 1, window: 200_000, want: true},   // > 2k
		{percent: 0, window: 200_000, want: true},
		{percent: 100, window: 200_000, want: false},
	}
	for _, tt := range tests {
		s := NewSession(Options{Mode: Mode{Kind: Auto, Percent: tt.percent}, ContextWindow: tt.window})
		if got := s.Enabled([]tool.Tool{coreTool("Bash"), big}); got != tt.want {
			t.Errorf("auto:%d enabled = %v, want %v", tt.percent, got, tt.want)
		}
		s.Close()
	}
}

func TestParseMode(t *testing.T) {
	tests := []struct {
		in   string
		want Mode
		err  bool
	}{
		{"", Mode{Kind: On}, false},
		{"true", Mode{Kind: On}, false},
		{"false", Mode{Kind: Off}, false},
		{"auto", Mode{Kind: Auto, Percent: 10}, false},
		{"auto:15", Mode{Kind: Auto, Percent: 15}, false},
		{"auto:0", Mode{Kind: Auto, Percent: 0}, false},
		{"auto:101", Mode{}, true},
		{"sometimes", Mode{}, true},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("ParseMode(%q) = %v, %v", tt.in, got, err)
		}
	}
	env := map[string]string{"ENABLE_TOOL_SEARCH": "false"}
	if m, _ := ModeFromEnv(func(k string) string { return env[k] }); m.Kind != Off {
		t.Errorf("ENABLE_TOOL_SEARCH=false gave %v", m)
	}
	env["ENABLE_SEARCH_EXTRA_TOOLS"] = "auto:20"
	if m, _ := ModeFromEnv(func(k string) string { return env[k] }); m != (Mode{Kind: Auto, Percent: 20}) {
		t.Errorf("ENABLE_SEARCH_EXTRA_TOOLS wins: got %v", m)
	}
	w, err := WeightsFromEnv(func(k string) string {
		return map[string]string{"SEARCH_EXTRA_TOOLS_WEIGHT_KEYWORD": "0.5", "SEARCH_EXTRA_TOOLS_DISPLAY_MIN_SCORE": "x"}[k]
	})
	if err == nil || w.Keyword != 0.5 || w.TFIDF != 0.6 || w.MinScore != 0.10 {
		t.Errorf("WeightsFromEnv = %+v, %v", w, err)
	}
}

func userMsg(text string) *llm.Message { return llm.NewUserText(text) }

func TestRemindersAnnounceDeferredToolsAsDelta(t *testing.T) {
	s := NewSession(Options{PrefetchOff: true})
	defer s.Close()
	pool := []tool.Tool{coreTool("Read"), mcpTool("mcp__a__one", "first"), mcpTool("mcp__a__two", "second")}
	history := []*llm.Message{userMsg("hello")}
	rs := s.ToolSet(pool).Reminders(context.Background(), history)
	if len(rs) != 1 || !strings.Contains(rs[0], headAvailable+"\nmcp__a__one\nmcp__a__two\n</system-reminder>") {
		t.Fatalf("first reminders = %q", rs)
	}
	history = append(history, userMsg(rs[0]))
	if rs := s.ToolSet(pool).Reminders(context.Background(), history); len(rs) != 0 {
		t.Fatalf("unchanged pool re-announced: %q", rs)
	}
	pool2 := []tool.Tool{coreTool("Read"), mcpTool("mcp__a__two", "second"), mcpTool("mcp__b__three", "third")}
	rs = s.ToolSet(pool2).Reminders(context.Background(), history)
	if len(rs) != 1 || !strings.Contains(rs[0], headAdded+"\nmcp__b__three") || !strings.Contains(rs[0], headRemoved+"\nmcp__a__one") ||
		strings.Contains(rs[0], "mcp__a__two") {
		t.Fatalf("delta = %q", rs)
	}
	history = append(history, userMsg(rs[0]))
	if rs := s.ToolSet(pool2).Reminders(context.Background(), history); len(rs) != 0 {
		t.Fatalf("delta re-announced: %q", rs)
	}
	// After compaction the reminders are gone: the full list comes again.
	rs = s.ToolSet(pool2).Reminders(context.Background(), []*llm.Message{userMsg("summary")})
	if len(rs) != 1 || !strings.Contains(rs[0], headAvailable+"\nmcp__a__two\nmcp__b__three\n") {
		t.Fatalf("after compaction = %q", rs)
	}
}

func TestPrefetchRecommendsStrongMatchesOncePerSession(t *testing.T) {
	s := NewSession(Options{})
	defer s.Close()
	pool := loadCatalogue(t)
	ts := s.ToolSet(pool)
	history := []*llm.Message{userMsg("请在 GitHub 上创建一个 issue，标题是 Bug report，内容是启动失败")}
	rs := ts.Reminders(context.Background(), history)
	if len(rs) != 2 {
		t.Fatalf("turn zero reminders: %d, want listing and discovery", len(rs))
	}
	if !strings.Contains(rs[1], `<tool name="mcp__github__create_issue">`) || !strings.Contains(rs[1], `"title"`) {
		t.Fatalf("discovery = %q", rs[1])
	}
	for _, r := range rs {
		history = append(history, userMsg(r))
	}
	// The model answers; the conversation is searched in the background.
	history = append(history, &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("I will create the GitHub issue now, and also send an email to the team.")}})
	if rs := ts.Reminders(context.Background(), history); len(rs) != 0 {
		t.Fatalf("reminders before the background search ended: %q", rs)
	}
	s.settle()
	rs = ts.Reminders(context.Background(), history)
	if len(rs) != 1 || !strings.Contains(rs[0], `<tool name="mcp__gmail__send_email">`) {
		t.Fatalf("inter-turn discovery = %q", rs)
	}
	if strings.Contains(rs[0], "mcp__github__create_issue") {
		t.Errorf("create_issue recommended twice: %q", rs[0])
	}
	// A new session resumed from this history does not repeat either.
	history = append(history, userMsg(rs[0]))
	s2 := NewSession(Options{})
	defer s2.Close()
	s2.zeroDone = true
	s2.pending = []string{"mcp__gmail__send_email", "mcp__github__create_issue"}
	if rs := s2.ToolSet(pool).Reminders(context.Background(), history); len(rs) != 0 {
		t.Fatalf("resumed session repeated discoveries: %q", rs)
	}
}

func TestBoundedRecommendedSet(t *testing.T) {
	s := NewSession(Options{})
	defer s.Close()
	for i := range discoveredCap + 1 {
		s.markRecommended([]string{"t" + strings.Repeat("x", i)})
	}
	if len(s.recommended) != discoveredTrim || len(s.order) != discoveredTrim {
		t.Fatalf("set size %d/%d, want %d", len(s.recommended), len(s.order), discoveredTrim)
	}
	if !s.recommended["t"+strings.Repeat("x", discoveredCap)] || s.recommended["t"] {
		t.Error("trim kept the wrong end")
	}
}

func TestPrefetchStrongMatches(t *testing.T) {
	s := NewSession(Options{})
	defer s.Close()
	c := newCatalog(loadCatalogue(t), true, parseGlossary(glossaryText))
	tests := []struct {
		text string
		want string // comma-separated; "" means nothing is recommended
	}{
		{"please create a GitHub issue for the crash", "mcp__github__create_issue"},
		{"请在 GitHub 上创建一个 issue，标题是 Bug report", "mcp__github__create_issue"},
		{"send an email to the team about the release", "mcp__gmail__send_email"},
		{"发送邮件给团队", "mcp__gmail__send_email"},
		{"查询 postgres 数据库", "mcp__postgres__query"},
		{"list the files in this folder and fix the bug in main.go", ""},
		{"refactor the parser and run the tests", ""},
		{"what does this function do?", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(s.strongMatches(c, tt.text), ","); got != tt.want {
			t.Errorf("strongMatches(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
