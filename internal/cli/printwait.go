package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/sdk"
)

// defaultBackgroundWait is how long print mode waits, after the model's
// turn, for the background tasks still running (Claude Code's default
// ceiling).
const defaultBackgroundWait = 600 * time.Second

// backgroundWaitEnv overrides defaultBackgroundWait, in milliseconds; 0
// waits without a limit. Claude Code reads the same variable.
const backgroundWaitEnv = "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS"

// backgroundWait is how long print mode waits for background tasks, and
// whether there is a limit at all.
func (a *app) backgroundWait() (time.Duration, bool) {
	v := strings.TrimSpace(a.getenv(backgroundWaitEnv))
	if v == "" {
		return defaultBackgroundWait, true
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil || ms < 0 {
		// On stderr even without --verbose: the setting the user made is
		// not applied.
		fmt.Fprintf(a.env.Stderr, "reins: warning: %s=%q is not a number of milliseconds; waiting at most %s for background tasks\n", backgroundWaitEnv, v, defaultBackgroundWait)
		return defaultBackgroundWait, true
	}
	if ms == 0 {
		return 0, false
	}
	return time.Duration(ms) * time.Millisecond, true
}

// awaitBackground keeps a print-mode run alive while the background tasks
// the model started (run_in_background commands and agents) are running,
// as Claude Code does: the model was told it would learn when they
// finish, so each time some finish it gets a turn with their
// notifications. It returns the last turn's end. A failed or interrupted
// turn ends the run at once (its tasks are stopped as reins exits), and
// so does the wait limit, with a line on stderr that says how to lift it.
func (a *app) awaitBackground(ctx context.Context, end *engine.TurnEnd, run func(engine.Input) *engine.TurnEnd) *engine.TurnEnd {
	if a.tasks == nil {
		return end
	}
	limit, capped := a.backgroundWait()
	var timeout <-chan time.Time
	if capped {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	for end.Reason == engine.ReasonCompleted && ctx.Err() == nil {
		if notes := a.taskReminders(); len(notes) > 0 {
			content := make([]llm.ContentBlock, len(notes))
			for i, n := range notes {
				content[i] = llm.TextBlock(n)
			}
			end = sdk.MergeEnds(end, run(engine.Input{Content: content, Meta: true}))
			continue
		}
		if a.tasks.Running() == 0 {
			return end
		}
		select {
		case <-a.tasks.Changed():
		case <-ctx.Done():
			return end
		case <-timeout:
			fmt.Fprintf(a.env.Stderr, "reins: background tasks still running after %s; stopping them. Set %s=0 to wait for them without a limit.\n", limit, backgroundWaitEnv)
			return end
		}
	}
	return end
}

// sdkBackground gives the SDK server the session's background tasks.
type sdkBackground struct{ f *sdkFront }

var _ sdk.Background = sdkBackground{}

// Changed is signalled when a task finishes.
func (b sdkBackground) Changed() <-chan struct{} { return b.f.a.tasks.Changed() }

// Running counts the running tasks.
func (b sdkBackground) Running() int { return b.f.a.tasks.Running() }

// Notifications takes the notifications not yet given to the model.
func (b sdkBackground) Notifications() []string { return b.f.a.taskReminders() }

// WaitLimit is the wait for tasks once the client's input has ended.
func (b sdkBackground) WaitLimit() (time.Duration, bool) { return b.f.a.backgroundWait() }
