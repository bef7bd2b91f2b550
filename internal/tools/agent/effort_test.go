package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	agentdef "reins/internal/agent"
	"reins/internal/tool"
)

func TestSchemaOffersEffortAndWorktreeIsolation(t *testing.T) {
	var s struct {
		Properties map[string]struct {
			Enum        []string `json:"enum"`
			Description string   `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal((&Tool{}).InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if e := s.Properties["effort"]; strings.Join(e.Enum, ",") != "low,medium,high,xhigh,max" || e.Description == "" {
		t.Errorf("effort property: %+v", e)
	}
	if i := s.Properties["isolation"]; strings.Join(i.Enum, ",") != "worktree" || i.Description == "" {
		t.Errorf("isolation property: %+v", i)
	}
}

func TestEffortAndIsolationComeFromTheCallElseTheDefinition(t *testing.T) {
	sp := &fakeSpawner{}
	tl := newTool(t, sp, Config{})
	worker := &agentdef.Definition{Name: "worker", Description: "works", Prompt: "You work.", Effort: "low",
		Isolation: agentdef.IsolationWorktree, Source: agentdef.SourceProject}
	cat := agentdef.NewCatalog(append(agentdef.Builtin(), worker)...)
	tl.cfg.Catalog = func() *agentdef.Catalog { return cat }
	for _, tc := range []struct {
		input, effort, isolation string
	}{
		{`{"description":"d","prompt":"p"}`, "", ""},
		{`{"description":"d","prompt":"p","effort":"xhigh","isolation":"worktree"}`, "xhigh", "worktree"},
		{`{"description":"d","prompt":"p","subagent_type":"worker"}`, "low", "worktree"},
		{`{"description":"d","prompt":"p","subagent_type":"worker","effort":"max"}`, "max", "worktree"},
	} {
		if _, err := call(t, tl, tc.input, nil); err != nil {
			t.Fatalf("%s: %v", tc.input, err)
		}
		got := sp.specs[len(sp.specs)-1]
		if got.Effort != tc.effort || got.Isolation != tc.isolation {
			t.Errorf("%s: effort %q isolation %q, want %q %q", tc.input, got.Effort, got.Isolation, tc.effort, tc.isolation)
		}
	}
}

func TestBadEffortOrIsolationIsAnErrorForTheModel(t *testing.T) {
	tl := newTool(t, &fakeSpawner{}, Config{})
	for input, want := range map[string]string{
		`{"description":"d","prompt":"p","effort":"extreme"}`:   "low, medium, high, xhigh, max",
		`{"description":"d","prompt":"p","effort":"auto"}`:      "low, medium, high, xhigh, max",
		`{"description":"d","prompt":"p","isolation":"remote"}`: `the only isolation is "worktree"`,
	} {
		err := tl.Validate(context.Background(), nil, json.RawMessage(input))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", input, err, want)
		}
	}
}

func TestAKeptWorktreeIsNamedInTheReport(t *testing.T) {
	sp := &fakeSpawner{run: func(ctx context.Context, spec agentdef.Spec, emit func(any)) (*agentdef.Result, error) {
		return &agentdef.Result{Text: "Changed main.go.", Reason: "completed",
			WorktreePath: "/repo/.claude/worktrees/agent-x", WorktreeBranch: "worktree-agent-x"}, nil
	}}
	tl := newTool(t, sp, Config{})
	res, err := call(t, tl, `{"description":"d","prompt":"p","isolation":"worktree"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].Text
	if !strings.HasPrefix(text, "Changed main.go.") || !strings.Contains(text, "/repo/.claude/worktrees/agent-x") || !strings.Contains(text, "worktree-agent-x") {
		t.Errorf("report %q", text)
	}
	if d := res.Data.(*Data); d.WorktreePath != "/repo/.claude/worktrees/agent-x" || d.WorktreeBranch != "worktree-agent-x" {
		t.Errorf("data %+v", d)
	}
}

func TestASubagentWithoutALevelOfItsOwnRunsAtItsCallers(t *testing.T) {
	sp := &fakeSpawner{}
	tl := newTool(t, sp, Config{})
	raw := json.RawMessage(`{"description":"d","prompt":"p"}`)
	c := &tool.Call{ID: "toolu_1", Name: Name, Model: "claude-parent", Effort: "xhigh"}
	if _, err := tl.Call(context.Background(), c, raw, nil); err != nil {
		t.Fatal(err)
	}
	raw = json.RawMessage(`{"description":"d","prompt":"p","effort":"low"}`)
	if _, err := tl.Call(context.Background(), c, raw, nil); err != nil {
		t.Fatal(err)
	}
	if sp.specs[0].Effort != "xhigh" || sp.specs[1].Effort != "low" {
		t.Errorf("efforts %q, %q; want the caller's xhigh, then the call's low", sp.specs[0].Effort, sp.specs[1].Effort)
	}
}
