// Package streamjson writes the newline-delimited JSON messages of Claude
// Code's headless protocol (`--output-format stream-json`): the
// system/init line, assistant and user messages, stream events, system
// notices and the final result line, plus the one-object `json` format.
// Print mode and the SDK front end share it; field names follow the
// protocol exactly (spec/anchors.md §3.4, spec/captures).
//
// A Writer is safe for concurrent use: the SDK front end writes control
// messages from other goroutines while a turn streams. Every line is
// written with a single Write call and flushed at once.
package streamjson
