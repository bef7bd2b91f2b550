package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/llm/anthropic"
	"reins/internal/tool"
)

// instantProvider answers at once with a canned response, after encoding
// the request body exactly as the Anthropic client would, so the
// benchmark counts request assembly.
type instantProvider struct {
	reply    func(n int) []llm.Event
	n        int
	bodySize int
	buf      []byte
}

func (p *instantProvider) Stream(ctx context.Context, req *llm.Request) (llm.Stream, error) {
	body, err := anthropic.AppendRequest(p.buf[:0], req)
	if err != nil {
		return nil, err
	}
	p.buf = body
	p.bodySize = len(body)
	p.n++
	return &sliceStream{evs: p.reply(p.n)}, nil
}

type sliceStream struct{ evs []llm.Event }

func (s *sliceStream) Next() (llm.Event, error) {
	if len(s.evs) == 0 {
		return llm.Event{}, io.EOF
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, nil
}
func (s *sliceStream) Close() error { return nil }

func textEvents(id, text string) []llm.Event {
	return []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: id, Model: "m", Usage: &llm.Usage{InputTokens: 10}}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &llm.ContentBlock{Type: llm.BlockText}},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaText, Delta: text},
		{Type: llm.EventContentBlockStop, Index: 0},
		{Type: llm.EventMessageDelta, StopReason: "end_turn", Usage: &llm.Usage{OutputTokens: 5}},
		{Type: llm.EventMessageStop},
	}
}

func toolEvents(id, callID string) []llm.Event {
	return []llm.Event{
		{Type: llm.EventMessageStart, Message: &llm.Message{ID: id, Model: "m", Usage: &llm.Usage{InputTokens: 10}}},
		{Type: llm.EventContentBlockStart, Index: 0, Block: &llm.ContentBlock{Type: llm.BlockToolUse, ID: callID, Name: "Read"}},
		{Type: llm.EventContentBlockDelta, Index: 0, DeltaType: llm.DeltaInputJSON, Delta: `{"id":"` + callID + `"}`},
		{Type: llm.EventContentBlockStop, Index: 0},
		{Type: llm.EventMessageDelta, StopReason: "tool_use", Usage: &llm.Usage{OutputTokens: 5}},
		{Type: llm.EventMessageStop},
	}
}

// history builds n turns of realistic size: a prompt, a tool call with a
// 2 KB result, and an answer.
func history(n int) []engine.HistoryItem {
	var items []engine.HistoryItem
	result := strings.Repeat("line of file content here\n", 80)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("toolu_%d", i)
		items = append(items,
			engine.HistoryItem{Message: llm.NewUserText(fmt.Sprintf("question %d about the code", i))},
			engine.HistoryItem{Message: &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
				{Type: llm.BlockToolUse, ID: id, Name: "Read", Input: json.RawMessage(`{"id":"x"}`)}}}},
			engine.HistoryItem{Message: &llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{
				llm.ToolResultBlock(id, []llm.ContentBlock{llm.TextBlock(result)}, false)}}},
			engine.HistoryItem{Message: &llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("an answer of modest length")}}},
		)
	}
	return items
}

// BenchmarkTurnOverhead500 measures the engine's own time for one turn
// (a tool round and an answer: two requests) on a 500-turn history: the
// work between one model stream ending and the next request being ready,
// with tool execution instant and the model answering at once. The
// reported ns/op covers two request builds; overhead/request is printed.
func BenchmarkTurnOverhead500(b *testing.B) {
	log := &trace{}
	read := &fakeTool{name: "Read", safe: true, log: log}
	p := &instantProvider{}
	p.reply = func(n int) []llm.Event {
		if n%2 == 1 {
			return toolEvents(fmt.Sprintf("msg_%d", n), fmt.Sprintf("call_%d", n))
		}
		return textEvents(fmt.Sprintf("msg_%d", n), "done")
	}
	s := engine.New(engine.Config{
		Provider: p, Models: llm.NewModels(func(string) string { return "" }), Model: "claude-sonnet-4-5",
		System: []llm.SystemBlock{{Text: strings.Repeat("system prompt text ", 500), Cache: true}},
		Tools:  func(context.Context) engine.ToolSet { return engine.ToolSet{Tools: []tool.Tool{read}} },
	})
	base := history(500)
	// Warm the per-message encoding caches, as a live session would have.
	s.SetHistory(base)
	for range s.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock("warm")}}) {
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s.SetHistory(base)
		b.StartTimer()
		for range s.Run(context.Background(), engine.Input{Content: []llm.ContentBlock{llm.TextBlock("next")}}) {
		}
	}
	el := time.Since(start)
	b.ReportMetric(float64(el.Nanoseconds())/float64(b.N)/2/1e6, "ms/request")
	b.ReportMetric(float64(p.bodySize)/(1<<20), "MB/body")
}
