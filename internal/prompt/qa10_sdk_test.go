package prompt

import (
	"strings"
	"testing"
)

// A --system-prompt with the SDKs' boundary marker on a line of its own
// is sent as two blocks, the marker left out; bare mode's one block drops
// it too.
func TestQA10CustomPromptBoundaryMarkerIsNotSent(t *testing.T) {
	custom := "Shared rules.\n" + DynamicBoundary + "\nThis session's notes."
	blocks := Build(Options{Custom: custom, Cwd: "/w", Date: "2026-01-02"})
	if len(blocks) < 2 || blocks[0].Text != "Shared rules." || blocks[1].Text != "This session's notes." {
		t.Errorf("blocks %+v, want the shared part, then the session's", blocks)
	}
	for _, b := range blocks {
		if strings.Contains(b.Text, DynamicBoundary) {
			t.Errorf("block %q carries the marker", b.Text)
		}
	}
	bare := Build(Options{Custom: custom, Simple: true})
	if len(bare) != 1 || bare[0].Text != "Shared rules.\n\nThis session's notes." {
		t.Errorf("bare mode blocks %+v", bare)
	}
	if got := CustomBlocks(DynamicBoundary); len(got) != 0 {
		t.Errorf("a prompt of the marker alone gave %+v, want no block", got)
	}
}
