package tool

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"reins/internal/llm"
)

// userLimitedTool returns size characters and has its own result limit.
type userLimitedTool struct {
	Defaults
	size, limit int
}

func (*userLimitedTool) Name() string                 { return "mcp__s__big" }
func (*userLimitedTool) Description() string          { return "big" }
func (*userLimitedTool) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (t *userLimitedTool) Call(context.Context, *Call, json.RawMessage, func(Progress)) (*Result, error) {
	return &Result{Content: []llm.ContentBlock{llm.TextBlock(strings.Repeat("x", t.size))}}, nil
}
func (t *userLimitedTool) ResultLimit() int              { return t.limit }
func (t *userLimitedTool) OverLimitNote(size int) string { return "[over by the user's limit]" }

func TestUserLimitedToolKeepsItsOwnLimitAboveTheDefault(t *testing.T) {
	tl := &userLimitedTool{size: DefaultMaxResultChars + 10_000, limit: 2 * DefaultMaxResultChars}
	if got := Threshold(tl); got != 2*DefaultMaxResultChars {
		t.Fatalf("threshold %d", got)
	}
	p := Pipeline{Store: &ResultStore{Dir: t.TempDir()}}
	o := p.Run(context.Background(), &Call{ID: "toolu_1", Name: tl.Name()}, tl, json.RawMessage(`{}`))
	if got := o.Block.ResultText(); len(got) != tl.size {
		t.Errorf("result of %d characters under its limit was replaced: %.200q", tl.size, got)
	}
}

func TestUserLimitedToolOverItsLimitIsSavedWithItsNote(t *testing.T) {
	tl := &userLimitedTool{size: 5000, limit: 1000}
	p := Pipeline{Store: &ResultStore{Dir: t.TempDir()}}
	o := p.Run(context.Background(), &Call{ID: "toolu_2", Name: tl.Name()}, tl, json.RawMessage(`{}`))
	got := o.Block.ResultText()
	if !strings.HasPrefix(got, "<persisted-output>") || !strings.HasSuffix(got, "</persisted-output>\n[over by the user's limit]") {
		t.Fatalf("result = %q", got)
	}
	entries, _ := os.ReadDir(p.Store.Dir)
	if len(entries) != 1 {
		t.Errorf("saved files: %v", entries)
	}
}
