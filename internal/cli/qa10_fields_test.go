package cli

import (
	"context"
	"testing"

	"reins/internal/streamjson"
	"reins/internal/task"
	"reins/internal/tool"
)

// TestQA10SubagentOutcomeNamesWhoStoppedIt: a sub-agent's run counts in
// subagent_stats by how it ended; a stopped one by who stopped it, as
// its context's cause says.
func TestQA10SubagentOutcomeNamesWhoStoppedIt(t *testing.T) {
	stopped := func(cause error) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		return ctx
	}
	for _, tc := range []struct {
		ctx    context.Context
		reason string
		want   string
	}{
		{context.Background(), "completed", streamjson.SubagentCompleted},
		{context.Background(), "max_turns", streamjson.SubagentCompleted},
		{context.Background(), "error", streamjson.SubagentFailed},
		{stopped(tool.ErrInterrupted), "aborted_streaming", streamjson.SubagentKilledUser},
		{stopped(task.ErrStoppedByUser), "aborted_tools", streamjson.SubagentKilledUser},
		{stopped(task.ErrStoppedByModel), "aborted_streaming", streamjson.SubagentKilledParent},
		{stopped(task.ErrClosed), "aborted_streaming", streamjson.SubagentKilledSystem},
	} {
		if got := subagentOutcome(tc.ctx, tc.reason); got != tc.want {
			t.Errorf("outcome of %s with cause %v = %s, want %s", tc.reason, context.Cause(tc.ctx), got, tc.want)
		}
	}
}
