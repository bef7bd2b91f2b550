package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/tool"
)

// When the stream breaks after two serial calls were complete, the one
// running finishes with its own result and the one waiting is answered
// "Not run" without running; before, both were stopped and answered as
// interrupted by the user.
func TestStreamBreakLetsTheRunningCallFinishAndSkipsTheQueued(t *testing.T) {
	log := &trace{}
	edit := &fakeTool{name: "Edit", delay: 50 * time.Millisecond, log: log}
	h := newHarness(t, engine.Config{}, []tool.Tool{edit},
		llmtest.Turn{Blocks: []llmtest.Block{use("a", "Edit"), use("b", "Edit"), llmtest.Text(strings.Repeat("z", 200))},
			Fault: &llmtest.Fault{After: 10, Reset: true}})
	_, end := h.run(t, context.Background(), "hi")
	if end.Reason != engine.ReasonError {
		t.Fatalf("end = %s %v", end.Reason, end.Err)
	}
	msgs := h.sess.Messages()
	answered(t, msgs)
	results := map[string]llm.ContentBlock{}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				results[b.ToolUseID] = b
			}
		}
	}
	if a := results["a"]; a.IsError || a.ResultText() != "result a" {
		t.Errorf("running call a answered %q (error %v), want its own result", a.ResultText(), a.IsError)
	}
	if b := results["b"]; !b.IsError || !strings.HasPrefix(b.ResultText(), "Not run") {
		t.Errorf("queued call b answered %q (error %v), want Not run", b.ResultText(), b.IsError)
	}
	for _, ev := range log.list() {
		if ev == "start b" {
			t.Error("the queued call ran after the stream broke")
		}
	}
}
