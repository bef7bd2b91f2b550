// Package trust records which folders the user has trusted. Until a folder
// is trusted, its project settings apply only a safe subset (see the
// settings package) and nothing from it runs.
//
// Records live in the user config folder (trust.json under ~/.reins). A
// trusted folder covers every folder below it. The home folder, once
// accepted, is trusted for the session only and never written down, so
// that one answer does not silently trust every project of the user.
// Folders Claude Code has trusted (hasTrustDialogAccepted in its
// ~/.claude.json) are honoured too; reins never writes that file.
//
// Print and SDK modes treat the folder as trusted without asking, as
// Claude Code does; that choice belongs to the caller.
package trust
