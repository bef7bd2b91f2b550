package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultCleanupPeriod is how long transcripts are kept when the
// cleanupPeriodDays setting is not given.
const DefaultCleanupPeriod = 30 * 24 * time.Hour

// CleanupReport says what Cleanup removed.
type CleanupReport struct {
	Removed []string // transcripts removed, with their session folders
	Errs    []error  // files that could not be removed
}

// CleanupInterval is how often Cleanup runs: a pass lstats every
// transcript, which with months of sessions costs noticeable time at each
// start, while transcripts are kept for days.
const CleanupInterval = 24 * time.Hour

// cleanupStamp is the file under Root whose modification time records the
// last complete Cleanup pass.
const cleanupStamp = ".last-cleanup"

// CleanupDue reports whether a Cleanup pass is due at now: none completed
// within CleanupInterval (or the record of it is unreadable).
func (s Store) CleanupDue(now time.Time) bool {
	fi, err := os.Stat(filepath.Join(s.Root, cleanupStamp))
	return err != nil || now.Sub(fi.ModTime()) >= CleanupInterval || fi.ModTime().After(now)
}

// Cleanup removes the transcripts under Root not modified for maxAge (0
// means DefaultCleanupPeriod), with their session folders, then session
// folders left without a transcript and project folders left empty that
// had not changed for maxAge.
// Sessions for which keep returns true (the running ones) are never
// removed, nor are those another process is recording (Busy). It stops early when ctx is cancelled. Run it in the background
// at start-up; it never touches the Also folders.
func (s Store) Cleanup(ctx context.Context, maxAge time.Duration, now time.Time, keep func(id string) bool) (CleanupReport, error) {
	var rep CleanupReport
	if maxAge <= 0 {
		maxAge = DefaultCleanupPeriod
	}
	cutoff := now.Add(-maxAge)
	projects, err := os.ReadDir(s.ProjectsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return rep, nil
	}
	if err != nil {
		return rep, fmt.Errorf("clean up sessions: %w", err)
	}
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if p.IsDir() {
			s.cleanProject(ctx, filepath.Join(s.ProjectsDir(), p.Name()), cutoff, keep, &rep)
		}
	}
	if ctx.Err() == nil {
		// A complete pass: record it (see CleanupDue).
		stamp := filepath.Join(s.Root, cleanupStamp)
		if err := os.Chtimes(stamp, now, now); err != nil {
			os.WriteFile(stamp, nil, 0o600)
			os.Chtimes(stamp, now, now)
		}
	}
	return rep, nil
}

func (s Store) cleanProject(ctx context.Context, dir string, cutoff time.Time, keep func(string) bool, rep *CleanupReport) {
	fi, err := os.Stat(dir)
	stale := err == nil && fi.ModTime().Before(cutoff)
	ents, err := os.ReadDir(dir)
	if err != nil {
		rep.Errs = append(rep.Errs, err)
		return
	}
	transcripts := map[string]bool{}
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() {
			transcripts[id] = true
		}
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return
		}
		name := e.Name()
		id, isTranscript := strings.CutSuffix(name, ".jsonl")
		if e.IsDir() {
			id, isTranscript = name, false
		}
		if keep != nil && keep(id) {
			continue
		}
		switch {
		case isTranscript && !e.IsDir():
			if !olderThan(e, cutoff) {
				continue
			}
			path := filepath.Join(dir, name)
			if Busy(path) {
				// A session another reins still runs (a terminal UI
				// left open for days): what it records next would go
				// to a removed file and be lost.
				continue
			}
			if err := os.Remove(path); err != nil {
				rep.Errs = append(rep.Errs, err)
				continue
			}
			if err := os.RemoveAll(filepath.Join(dir, id)); err != nil {
				rep.Errs = append(rep.Errs, err)
			}
			rep.Removed = append(rep.Removed, path)
		case !e.IsDir() && strings.Contains(name, ".jsonl.part-"):
			// A fork's copy its process did not live to put in place.
			if olderThan(e, cutoff) {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					rep.Errs = append(rep.Errs, err)
				}
			}
		case e.IsDir() && !transcripts[id]:
			// A session folder whose transcript is gone (or was never
			// written): remove it once it is old too.
			if olderThan(e, cutoff) {
				if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
					rep.Errs = append(rep.Errs, err)
				}
			}
		}
	}
	// Remove the project folder if nothing is left and it was old before
	// this pass; fails harmlessly when something is left. A folder made or
	// changed recently may belong to a session that has just made it and
	// is about to write its first line (in this process or another), and
	// removing it then would lose that line.
	if stale {
		_ = os.Remove(dir)
	}
}

func olderThan(e fs.DirEntry, cutoff time.Time) bool {
	info, err := e.Info()
	return err == nil && info.ModTime().Before(cutoff)
}
