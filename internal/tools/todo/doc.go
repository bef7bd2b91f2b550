// Package todo is the TodoWrite tool and the store that holds each
// session's todo list.
//
// A Store keeps one list per agent (the main thread has agent ID ""), so
// sub-agents keep their own lists. The engine and front ends read it with
// Items and can watch changes with Watch; the tool is the only writer in
// normal use. Each TodoWrite call replaces the caller's whole list; a
// list in which every item is completed is cleared. At most one item may
// be in progress.
//
// The structured result has Claude Code's fields, oldTodos and newTodos.
//
// This package must not import the engine or any front end.
package todo
