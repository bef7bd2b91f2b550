package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RequireAbs checks that p, the value of the input field named field, is
// an absolute path. The error names the field and, when cwd is known,
// suggests the absolute form of a relative path.
func RequireAbs(field, p, cwd string) error {
	if p == "" {
		return fmt.Errorf("%s is empty; it must be an absolute path", field)
	}
	if filepath.IsAbs(p) {
		return nil
	}
	msg := fmt.Sprintf("%s must be an absolute path, but %q is relative", field, p)
	if home := ExpandHome(p); home != p {
		msg += fmt.Sprintf(" (did you mean %q?)", home)
	} else if cwd != "" && filepath.IsAbs(cwd) {
		msg += fmt.Sprintf(" (did you mean %q?)", filepath.Join(cwd, p))
	}
	return errors.New(msg)
}

// ExpandHome returns p with a leading "~" or "~/" replaced by the user's
// home folder ($HOME), or p itself when it has no such prefix or the home
// folder is unknown. "~user" forms are left alone.
func ExpandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, p[1:])
}

// Resolve returns the clean, absolute form of p with every symlink
// resolved. When p does not exist yet, its longest existing ancestor is
// resolved and the remaining names are appended, so a new file under a
// symlinked folder resolves to its real location. A symlink loop or an
// unreadable folder is an error.
func Resolve(p string) (string, error) {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("resolve %s: path is not absolute", p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	// Walk up to the first ancestor that exists.
	var rest []string
	dir := p
	for {
		parent := filepath.Dir(dir)
		rest = append(rest, filepath.Base(dir))
		if parent == dir {
			return p, nil
		}
		dir = parent
		real, err = filepath.EvalSymlinks(dir)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("resolve %s: %w", p, err)
		}
	}
	// A dangling symlink in the path: follow its target textually.
	if fi, lerr := os.Lstat(filepath.Join(real, rest[len(rest)-1])); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("resolve %s: %s is a symlink to a missing target", p, filepath.Join(real, rest[len(rest)-1]))
	}
	for i := len(rest) - 1; i >= 0; i-- {
		real = filepath.Join(real, rest[i])
	}
	return real, nil
}

// StatFile resolves p and stats it, returning the resolved path. It
// reports, in words meant for the model and naming field, a missing file,
// a directory where a file is needed, and permission problems.
func StatFile(field, p string) (string, fs.FileInfo, error) {
	real, err := Resolve(p)
	if err != nil {
		return "", nil, describe(field, p, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return real, nil, describe(field, p, err)
	}
	if fi.IsDir() {
		return real, fi, fmt.Errorf("%s %s is a directory, not a file; give the path of a file inside it (use Glob or `ls` to list it)", field, p)
	}
	if !fi.Mode().IsRegular() {
		return real, fi, fmt.Errorf("%s %s is not a regular file (%s)", field, p, fi.Mode().Type())
	}
	return real, fi, nil
}

// describe turns a file-system error into a message naming the field.
// The result still matches fs.ErrNotExist and fs.ErrPermission with
// errors.Is.
func describe(field, p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fieldError{fmt.Sprintf("%s %s does not exist", field, p), err}
	case errors.Is(err, fs.ErrPermission):
		return &fieldError{fmt.Sprintf("%s %s cannot be accessed: permission denied", field, p), err}
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.Contains(msg, p) {
		msg = msg[i+2:]
	}
	return &fieldError{fmt.Sprintf("%s %s: %s", field, p, msg), err}
}

// fieldError is a message for the model that keeps the underlying error
// for errors.Is.
type fieldError struct {
	msg string
	err error
}

func (e *fieldError) Error() string { return e.msg }
func (e *fieldError) Unwrap() error { return e.err }
