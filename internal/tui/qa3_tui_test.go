package tui

import (
	"testing"
	"time"
)

// The tallest view stays counted until frameWindow after a later view
// replaced it, since Bubble Tea may still show it; the current view is
// counted however old it is.
func TestQA3FrameHeightsKeepsTheTallestRecentView(t *testing.T) {
	var f frameHeights
	t0 := time.Unix(1000, 0)
	f.note(30, t0)
	if got := f.tallest(t0.Add(time.Hour)); got != 30 {
		t.Fatalf("current view: tallest = %d, want 30", got)
	}
	f.note(5, t0.Add(time.Hour))
	if got := f.tallest(t0.Add(time.Hour + frameWindow/2)); got != 30 {
		t.Fatalf("just replaced: tallest = %d, want 30", got)
	}
	f.note(7, t0.Add(time.Hour+frameWindow/2))
	if got := f.tallest(t0.Add(time.Hour + 2*frameWindow)); got != 7 {
		t.Fatalf("long replaced: tallest = %d, want 7", got)
	}
}
