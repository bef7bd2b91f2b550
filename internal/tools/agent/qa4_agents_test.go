package agent

import (
	"context"
	"errors"
	"testing"

	agentdef "reins/internal/agent"
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
