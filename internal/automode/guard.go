package automode

import "sync"

// When auto mode stops deciding on its own: after MaxConsecutiveBlocks
// blocks in a row, until the user approves an action; after
// MaxTotalBlocks blocks in a session, for the rest of it.
const (
	MaxConsecutiveBlocks = 3
	MaxTotalBlocks       = 20
)

// Guard counts the classifier's blocks in a session and pauses auto mode
// when there are too many: the actions then go to the user. The zero
// value is ready; it is safe for concurrent use and shared by the
// session's sub-agents.
type Guard struct {
	mu          sync.Mutex
	consecutive int
	total       int
}

// Paused reports whether auto mode is paused.
func (g *Guard) Paused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paused()
}

func (g *Guard) paused() bool {
	return g.consecutive >= MaxConsecutiveBlocks || g.total >= MaxTotalBlocks
}

// Blocked records a block. It reports whether this block paused auto
// mode.
func (g *Guard) Blocked() (paused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	was := g.paused()
	g.consecutive++
	g.total++
	return !was && g.paused()
}

// Reset forgets the blocks counted so far (a new session).
func (g *Guard) Reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.consecutive, g.total = 0, 0
}

// Allowed records an action the classifier or the user allowed: the run
// of blocks ends, which lifts a pause that came from it.
func (g *Guard) Allowed() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.consecutive = 0
}
