package tui

// InitPrompt is the request /init sends to the model: study the project
// and write its CLAUDE.md. Print and SDK modes use it too.
func InitPrompt() string { return initPrompt }
