package compact_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"reins/internal/compact"
	"reins/internal/engine"
	"reins/internal/llm"
)

type nopProvider struct{}

func (nopProvider) Stream(context.Context, *llm.Request) (llm.Stream, error) {
	panic("no model call expected")
}

// BenchmarkPrepare500 measures the compaction pipeline's cost before a
// request at 500 turns of history, below the threshold (the common
// case). The reference is one encoding of the same history, the least a
// request costs anyway.
func BenchmarkPrepare500(b *testing.B) {
	var items []engine.HistoryItem
	for i := range 500 {
		id := fmt.Sprint("t", i)
		items = append(items,
			engine.HistoryItem{UUID: fmt.Sprint("a", i), Message: &llm.Message{Role: llm.RoleAssistant, ID: fmt.Sprint("m", i),
				Usage:   &llm.Usage{InputTokens: 1000 + i, OutputTokens: 50},
				Content: []llm.ContentBlock{llm.TextBlock("working"), {Type: llm.BlockToolUse, ID: id, Name: "Read", Input: []byte(`{"file_path":"/x"}`)}}}},
			engine.HistoryItem{UUID: fmt.Sprint("u", i), Message: &llm.Message{Role: llm.RoleUser,
				Content: []llm.ContentBlock{llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(strings.Repeat("line of code\n", 40))}, false)}}})
	}
	s := engine.New(engine.Config{Provider: nopProvider{}, Models: llm.NewModels(nil), Model: "claude-sonnet-4-5"})
	s.SetHistory(items)
	c := compact.New(compact.Config{})
	ctx := context.Background()
	emit := func(engine.Event) {}

	start := time.Now()
	var buf []byte
	for _, it := range items {
		buf, _ = it.Message.AppendAPI(buf[:0], false, "")
	}
	ref := time.Since(start)

	b.ResetTimer()
	for b.Loop() {
		if err := c.Prepare(ctx, s, emit); err != nil {
			b.Fatal(err)
		}
	}
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(per.Nanoseconds())/1e3, "µs/prepare")
	b.ReportMetric(float64(ref.Nanoseconds())/1e3, "µs/ref-encode")
	b.Logf("Prepare at 500 turns: %v; reference (encoding the history once, first time): %v", per, ref)
}
