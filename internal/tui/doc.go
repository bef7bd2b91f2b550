// Package tui is reins's interactive terminal front end, built on Bubble
// Tea v2, Lip Gloss, and Glamour.
//
// The conversation is printed into the terminal's own scrollback: every
// finished message, tool call and notice is printed above the program
// once (the inline mode, not the alternate screen), so the terminal
// scrolls, searches and copies as usual. Only the live area at the bottom
// is redrawn: the text streaming in, running tool calls with a spinner and
// elapsed time, messages queued during a turn, the input editor or a
// dialog, and the status line. Nothing in the live area grows with the
// length of the session, so a keypress costs the same after five thousand
// messages as after five.
//
// # Data flow
//
// The engine is driven exactly as every front end drives it: a turn is
// engine.Session.Run in a goroutine owned by the UI, and each event it
// yields enters the program through one bridge (bridge.go) as an eventMsg.
// Permission questions arrive the other way through the Asker, which this
// package implements with dialogs (permission, AskUserQuestion,
// ExitPlanMode); its Ask blocks until the dialog is answered or the
// question's context ends. Esc cancels the turn's context; messages typed
// during a turn go to engine.Session.Queue, and Up or Esc takes those not
// yet delivered back into the input (engine.Session.Unqueue); Esc then
// leaves the turn running.
//
// Update is a type switch that hands each message to the component that
// owns it: the editor (editor.go), the dialogs (dialog_*.go), the
// conversation (conversation.go), slash commands (commands.go).
//
// # What it must not do
//
// The package never runs its own query loop, never decides permissions
// (the gate does; the UI only answers questions) and never writes
// transcripts. It is the only package of reins that imports Bubble Tea,
// Lip Gloss or Glamour.
package tui
