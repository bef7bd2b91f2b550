package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ExcludeFromGit makes git ignore the personal settings file at path
// (.claude/settings.local.json), as Claude Code does when it creates that
// file, so "don't ask again" rules are not committed by accident. The
// file's path is added to the repository's own exclude file
// (.git/info/exclude: never a shared .gitignore, nor the user's global
// one) unless git ignores it already. Outside a repository, or without
// git, nothing is done.
func ExcludeFromGit(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		return strings.TrimSpace(out.String()), err
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil || top == "" {
		return nil // not in a repository, or no git
	}
	var exit *exec.ExitError
	switch _, err := git("check-ignore", "-q", "--no-index", path); {
	case err == nil:
		return nil // ignored already
	case !errors.As(err, &exit) || exit.ExitCode() != 1:
		return nil // git could not tell; leave the repository alone
	}
	exclude, err := git("rev-parse", "--path-format=absolute", "--git-path", "info/exclude")
	if err != nil || exclude == "" {
		return nil
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		realTop = top
	}
	realPath := path
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		realPath = filepath.Join(r, filepath.Base(path))
	}
	rel, err := filepath.Rel(realTop, realPath)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	line := "/" + filepath.ToSlash(rel)
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return fmt.Errorf("exclude %s from git: %w", path, err)
	}
	old, err := os.ReadFile(exclude)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("exclude %s from git: %w", path, err)
	}
	add := line + "\n"
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		add = "\n" + add
	}
	f, err := os.OpenFile(exclude, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("exclude %s from git: %w", path, err)
	}
	if _, err := f.WriteString(add); err != nil {
		f.Close()
		return fmt.Errorf("exclude %s from git: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("exclude %s from git: %w", path, err)
	}
	return nil
}
