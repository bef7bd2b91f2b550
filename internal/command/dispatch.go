package command

import (
	"context"
	"fmt"
)

// Mode is the front end a command is dispatched from.
type Mode int

const (
	// Interactive is the terminal UI.
	Interactive Mode = iota
	// Print is -p mode.
	Print
	// SDK is the stream-json control protocol.
	SDK
)

// Action says what a front end does with a dispatched input.
type Action int

const (
	// NotCommand: send the input to the model as typed.
	NotCommand Action = iota
	// Query: send Outcome.Expansion to the model.
	Query
	// Show: show Outcome.Text to the user; no model call.
	Show
	// OpenUI: the terminal UI runs Outcome.Command itself (a UI command
	// registered without Run).
	OpenUI
)

// Outcome is the result of Dispatch.
type Outcome struct {
	Action  Action
	Command *Command
	// Name and Args are as typed.
	Name string
	Args string
	// Text is for Show: a local command's output or an error message.
	Text    string
	IsError bool
	// Expansion is set for Query.
	Expansion *Expansion
}

// DispatchOptions configure Dispatch. The zero value dispatches for the
// terminal UI with a zero Expander.
type DispatchOptions struct {
	Mode     Mode
	Expander *Expander
	// IsPath, when set, reports whether "/word" names an existing file, so
	// that an unknown "/tmp" is sent as a prompt rather than refused.
	IsPath func(path string) bool
}

// Dispatch decides what to do with a line of user input:
//
//   - not a slash command (see Parse): NotCommand;
//   - an unknown name: Show "Unknown command: /name" (an error);
//   - a model-only command: Show an error;
//   - a UI command outside the terminal UI: Show "/name isn't available
//     in this mode" (an error);
//   - a UI command: its Run output, or OpenUI when it has no Run;
//   - a local command: Show its Run output (an error when Run fails);
//   - a prompt command: Query with its Expansion.
//
// The returned error is for ctx ending only.
func (r *Registry) Dispatch(ctx context.Context, input string, opt DispatchOptions) (*Outcome, error) {
	inv, ok := Parse(input)
	if !ok {
		return &Outcome{Action: NotCommand}, nil
	}
	out := &Outcome{Name: inv.Name, Args: inv.Args}
	show := func(isErr bool, format string, a ...any) (*Outcome, error) {
		out.Action, out.IsError, out.Text = Show, isErr, fmt.Sprintf(format, a...)
		return out, nil
	}
	c, found := r.Lookup(inv.Name)
	if !found {
		if opt.IsPath != nil && opt.IsPath("/"+inv.Name) {
			return &Outcome{Action: NotCommand}, nil
		}
		return show(true, "Unknown command: /%s", inv.Name)
	}
	out.Command = c
	switch {
	case c.ModelOnly:
		return show(true, "/%s can only be used by the model", inv.Name)
	case c.Kind == UI && opt.Mode != Interactive:
		return show(true, "/%s isn't available in this mode", inv.Name)
	case c.Kind == UI && c.Run == nil:
		out.Action = OpenUI
		return out, nil
	case c.Kind == Local || c.Kind == UI:
		if c.Run == nil {
			return show(true, "/%s cannot run here", inv.Name)
		}
		text, err := c.Run(ctx, inv.Args)
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		if err != nil {
			return show(true, "/%s: %v", inv.Name, err)
		}
		return show(false, "%s", text)
	}
	e := opt.Expander
	if e == nil {
		e = &Expander{}
	}
	x, err := e.Expand(ctx, c, inv.Args)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	if err != nil {
		return show(true, "%v", err)
	}
	out.Action, out.Expansion = Query, x
	return out, nil
}
