package tui

import (
	"context"
	"fmt"
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

// Until Bubble Tea has drawn its first frame, whatever is waiting to be
// printed (a resumed conversation) goes out in one print: a second print
// would land on top of the first. After that, a long print is cut into
// pieces that fit below the live area.
func TestQA3PrintsInOnePieceAtStartThenInPieces(t *testing.T) {
	now := time.Unix(1000, 0)
	m := newModel(context.Background(), Options{Now: func() time.Time { return now }, NoColor: true}, &bridge{})
	m.width, m.height = 80, 24
	m.statusText = "status" // no session to ask
	long := func() {
		m.pending = nil
		for i := 0; i < 100; i++ {
			m.pending = append(m.pending, fmt.Sprintf("line %d", i))
		}
	}
	long()
	if m.printPending() == nil || len(m.pending) != 0 {
		t.Fatalf("at start: %d of 100 lines left for later prints, want 0", len(m.pending))
	}
	m.printing = false
	now = now.Add(2 * frameWindow)
	m.View()
	now = now.Add(2 * frameWindow)
	long()
	if m.printPending() == nil || len(m.pending) == 0 || len(m.pending) >= 100 {
		t.Fatalf("later: %d of 100 lines left for later prints, want some", len(m.pending))
	}
}
