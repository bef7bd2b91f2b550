package cli

import (
	"context"
	"fmt"

	"reins/internal/engine"
	"reins/internal/hooks"
)

// notifyingAsker puts questions to the person at the terminal and, as it
// does, runs the Notification hooks with notification_type
// "permission_prompt", so that hooks written to alert the user (a desktop
// notification, a sound) fire when reins waits for an answer.
type notifyingAsker struct {
	engine.Asker
	a *app
}

// Ask starts the Notification hooks and asks. The hooks run alongside
// the question: a slow hook does not hold the dialog back.
func (n notifyingAsker) Ask(ctx context.Context, q engine.Question) (engine.Answer, error) {
	n.a.notification(ctx, "permission_prompt", fmt.Sprintf("reins needs your permission to use %s", q.ToolName))
	return n.Asker.Ask(ctx, q)
}

// notification runs the Notification hooks for a message in the
// background; their messages and errors go to the user.
func (a *app) notification(ctx context.Context, kind, message string) {
	if !a.hookRun.Has(hooks.Notification) {
		return
	}
	in := a.hookInput(hooks.Notification, func(h *hooks.Input) {
		h.Message, h.NotificationType = message, kind
	})
	go a.reportHooks(a.hookRun.Run(context.WithoutCancel(ctx), in))
}
