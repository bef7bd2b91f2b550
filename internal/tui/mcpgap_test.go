package tui

import (
	"reflect"
	"testing"

	"reins/internal/llm"
)

func newApprovalModel(names ...string) *mcpApprovalModel {
	var infos []MCPServerInfo
	for _, n := range names {
		infos = append(infos, MCPServerInfo{Name: n})
	}
	m := &mcpApprovalModel{o: MCPApprovalOptions{Servers: infos}, st: newStyles(false), width: 80, answers: map[string]MCPChoice{}}
	m.menu.items = []string{"all", "use", "refuse"}
	return m
}

func TestMCPApprovalAsksAboutEachServerInTurn(t *testing.T) {
	m := newApprovalModel("a", "b", "c")
	m.Update(keyMsg("3"))           // refuse a
	m.Update(keyMsg("down"))        // b: move to "use"
	m.Update(keyMsg("enter"))       // use b
	_, cmd := m.Update(keyMsg("1")) // c and any later: all
	want := map[string]MCPChoice{"a": MCPRefuse, "b": MCPUse, "c": MCPUseAll}
	if !reflect.DeepEqual(m.answers, want) || cmd == nil {
		t.Errorf("answers = %v (quit %v), want %v", m.answers, cmd != nil, want)
	}
}

func TestMCPApprovalUseAllAnswersTheRest(t *testing.T) {
	m := newApprovalModel("a", "b", "c")
	m.Update(keyMsg("2"))
	m.Update(keyMsg("1"))
	want := map[string]MCPChoice{"a": MCPUse, "b": MCPUseAll, "c": MCPUseAll}
	if !reflect.DeepEqual(m.answers, want) {
		t.Errorf("answers = %v, want %v", m.answers, want)
	}
}

func TestMCPApprovalEscLeavesTheRestForLater(t *testing.T) {
	m := newApprovalModel("a", "b")
	m.Update(keyMsg("2"))
	if _, cmd := m.Update(keyMsg("esc")); cmd == nil {
		t.Fatal("esc did not end the prompt")
	}
	if want := map[string]MCPChoice{"a": MCPUse}; !reflect.DeepEqual(m.answers, want) {
		t.Errorf("answers = %v, want %v", m.answers, want)
	}
}

func TestMentionCompletionsOfferResourcesBesideFiles(t *testing.T) {
	got := mentionCompletions([]string{"docs/auth.md"}, []Resource{{Server: "docs", URI: "file://api/auth", Name: "Auth"}}, "auth")
	var labels []string
	for _, c := range got {
		labels = append(labels, c.label+"|"+c.insert+"|"+c.desc)
	}
	want := []string{"docs/auth.md|@docs/auth.md |", "docs:file://api/auth|@docs:file://api/auth |MCP resource: Auth"}
	if len(labels) != 2 || !(reflect.DeepEqual(labels, want) || reflect.DeepEqual(labels, []string{want[1], want[0]})) {
		t.Errorf("completions = %q", labels)
	}
}

func TestDisplayPromptShowsResourcesThatWereNotAttached(t *testing.T) {
	m := &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
		llm.TextBlock("compare @gap:docs://ok and @gap:docs://broken"),
		llm.TextBlock("<mcp-resource server=\"gap\" uri=\"docs://ok\">\nfine\n</mcp-resource>"),
		llm.TextBlock("<mcp-resource server=\"gap\" uri=\"docs://broken\">\n[not attached: the store is offline]\n</mcp-resource>"),
	}}
	want := "compare @gap:docs://ok and @gap:docs://broken\n(@gap:docs://broken not attached: the store is offline)"
	if got := displayPrompt(m); got != want {
		t.Errorf("displayPrompt = %q, want %q", got, want)
	}
}
