package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	agentdef "reins/internal/agent"
	"reins/internal/task"
)

// A sub-agent that used up its turns on tool calls, with no text at all,
// is reported as stopped at its limit only; the report said it had also
// "finished without a final message", which contradicts it.
func TestQA4MaxTurnsWithoutTextIsNotReportedAsFinished(t *testing.T) {
	sp := &fakeSpawner{run: func(context.Context, agentdef.Spec, func(any)) (*agentdef.Result, error) {
		return &agentdef.Result{Reason: "max_turns", Err: errors.New("reached the maximum number of turns (1)")}, nil
	}}
	res, err := call(t, newTool(t, sp, Config{}), `{"description":"d","prompt":"p"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "(The agent stopped at its turn limit before it finished; reached the maximum number of turns (1))"
	if got := res.Content[0].Text; got != want {
		t.Errorf("report %q, want %q", got, want)
	}
}

// With CLAUDE_CODE_DISABLE_BACKGROUND_TASKS (NoBackground), the schema
// has no run_in_background, and a definition that asks to run in the
// background runs in the foreground and reports at once.
func TestNoBackgroundRunsAgentsInTheForeground(t *testing.T) {
	sp := &fakeSpawner{}
	reg := &task.Registry{Dir: t.TempDir()}
	defer reg.Close(context.Background())
	tl := newTool(t, sp, Config{Tasks: reg, NoBackground: true})
	if strings.Contains(string(tl.InputSchema()), "run_in_background") {
		t.Errorf("schema still offers run_in_background: %s", tl.InputSchema())
	}
	if _, err := call(t, tl, `{"description":"d","prompt":"p","run_in_background":true}`, nil); err == nil {
		t.Error("run_in_background was accepted")
	}
	bg := &agentdef.Definition{Name: "indexer", Description: "indexes", Prompt: "You index.", Background: true, Source: agentdef.SourceProject}
	cat := agentdef.NewCatalog(append(agentdef.Builtin(), bg)...)
	tl.cfg.Catalog = func() *agentdef.Catalog { return cat }
	res, err := call(t, tl, `{"description":"index","prompt":"index it","subagent_type":"indexer"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].Text; !strings.HasPrefix(text, "done: index it") {
		t.Errorf("the agent did not run in the foreground: %q", text)
	}
	if len(reg.List()) != 0 {
		t.Errorf("tasks were started: %v", reg.List())
	}
}
