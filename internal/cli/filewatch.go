package cli

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"reins/internal/engine"
	"reins/internal/hooks"
	"reins/internal/tool"
)

// fileWatchInterval is how often the watched files are looked at between
// tool calls (after each batch of tool calls they are looked at too).
const fileWatchInterval = time.Second

// fileState is what the watcher last saw of a file.
type fileState struct {
	exists bool
	mod    time.Time
	size   int64
}

// statFile reads a file's state now.
func statFile(path string) fileState {
	fi, err := os.Stat(path)
	if err != nil {
		return fileState{}
	}
	return fileState{exists: true, mod: fi.ModTime(), size: fi.Size()}
}

// fileWatch watches the files FileChanged hooks are about: those their
// matchers name (in the project folder) and those SessionStart, CwdChanged
// and FileChanged hooks add with watchPaths. It looks at them every
// fileWatchInterval and after each batch of tool calls, and runs the
// FileChanged hooks for each file added, changed or removed since.
type fileWatch struct {
	a *app

	mu    sync.Mutex // guards files
	files map[string]fileState
	order []string

	checking sync.Mutex // one look at a time

	stop chan struct{}
	done chan struct{}
}

// startFileWatch starts watching when the session has FileChanged hooks;
// it is stopped when the session closes.
func (a *app) startFileWatch() {
	if !a.hookRun.Has(hooks.FileChanged) || a.fileWatch.Load() != nil {
		return
	}
	w := &fileWatch{a: a, files: map[string]fileState{}, stop: make(chan struct{}), done: make(chan struct{})}
	if !a.fileWatch.CompareAndSwap(nil, w) {
		return // started by another goroutine meanwhile
	}
	var names []string
	for _, n := range a.hookRun.WatchedFiles() {
		if !filepath.IsAbs(n) {
			n = filepath.Join(a.cwd, n)
		}
		names = append(names, n)
	}
	w.add(names)
	go w.loop()
	a.onClose(func() {
		close(w.stop)
		<-w.done
	})
}

// watchPaths adds the paths a hook's watchPaths named.
func (a *app) watchPaths(paths []string) {
	if len(paths) == 0 {
		return
	}
	a.startFileWatch()
	if w := a.fileWatch.Load(); w != nil {
		w.add(paths)
	}
}

// add starts watching paths not watched yet, from their state now.
func (w *fileWatch) add(paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range paths {
		p = filepath.Clean(p)
		if _, ok := w.files[p]; ok {
			continue
		}
		w.files[p] = statFile(p)
		w.order = append(w.order, p)
	}
}

func (w *fileWatch) loop() {
	defer close(w.done)
	t := time.NewTicker(fileWatchInterval)
	defer t.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-w.stop
		cancel()
	}()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.check(ctx)
		}
	}
}

// fileEvent is one change the watcher saw.
type fileEvent struct {
	path, kind string
}

// check looks at every watched file and runs the FileChanged hooks for
// each that was added ("add"), changed ("change") or removed ("unlink"):
// they get CLAUDE_ENV_FILE, as SessionStart hooks do, and what they say
// is shown to the user; their watchPaths are watched from then on.
func (w *fileWatch) check(ctx context.Context) {
	w.checking.Lock()
	defer w.checking.Unlock()
	var events []fileEvent
	w.mu.Lock()
	for _, p := range w.order {
		old, now := w.files[p], statFile(p)
		switch {
		case !old.exists && now.exists:
			events = append(events, fileEvent{p, "add"})
		case old.exists && !now.exists:
			events = append(events, fileEvent{p, "unlink"})
		case now.exists && (!now.mod.Equal(old.mod) || now.size != old.size):
			events = append(events, fileEvent{p, "change"})
		}
		w.files[p] = now
	}
	w.mu.Unlock()
	a := w.a
	for _, e := range events {
		if ctx.Err() != nil {
			return
		}
		envFile, cleanup := a.hookEnvFile(hooks.FileChanged)
		r := a.hookRun.Run(ctx, a.hookInput(hooks.FileChanged, func(h *hooks.Input) {
			h.FilePath, h.FileEvent = e.path, e.kind
			if envFile != "" {
				h.Env = []string{"CLAUDE_ENV_FILE=" + envFile}
			}
		}))
		a.reportObserved(r)
		if envFile != "" {
			a.applyHookEnv(ctx, hooks.FileChanged, envFile)
		}
		cleanup()
		w.add(r.WatchPaths)
	}
}

// fileWatchingHooks is the session's stop hooks with a look at the
// watched files after each batch of tool calls, so that a change the
// model's own tools made is seen before its next request.
type fileWatchingHooks struct {
	*engine.PermissionGate
	a *app
}

// PostToolBatch looks at the watched files, then runs the PostToolBatch
// hooks.
func (h fileWatchingHooks) PostToolBatch(ctx context.Context, calls []*tool.Outcome) engine.BatchDecision {
	if w := h.a.fileWatch.Load(); w != nil {
		w.check(ctx)
	}
	return h.PermissionGate.PostToolBatch(ctx, calls)
}
