package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UpdateFile rewrites the file at path (the file a symlink points to,
// when path is one) through fn, atomically and under an exclusive lock on
// its folder, so concurrent writers (two reins processes
// answering "don't ask again") do not lose each other's changes; no lock
// file is left beside it.
// fn receives the current content (nil when the file does not exist) and
// returns the new content. Missing folders are created.
func UpdateFile(path string, perm fs.FileMode, fn func(old []byte) ([]byte, error)) error {
	// A settings file kept elsewhere (a dotfiles repository) and linked
	// into place is updated where it lives; the link stays a link.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return fmt.Errorf("update %s: lock: %w", path, err)
	}
	defer unlock()
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("update %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	data, err := fn(old)
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	return nil
}

// AddRules adds permission rules with behaviour b to the settings file at
// path (permissions.allow, .ask or .deny), keeping every other key and
// skipping rules already present. A file that is not a valid JSON object
// is left alone and reported.
func AddRules(path string, b Behavior, rules []string) error {
	return UpdateFile(path, 0o644, func(old []byte) ([]byte, error) {
		root := map[string]json.RawMessage{}
		if len(bytes.TrimSpace(old)) > 0 {
			if err := json.Unmarshal(old, &root); err != nil {
				return nil, fmt.Errorf("not a JSON object, not changed: %w", err)
			}
		}
		perms := map[string]json.RawMessage{}
		if raw, ok := root["permissions"]; ok {
			if err := json.Unmarshal(raw, &perms); err != nil {
				return nil, fmt.Errorf("permissions is not an object, not changed: %w", err)
			}
		}
		var list []string
		if raw, ok := perms[string(b)]; ok {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, fmt.Errorf("permissions.%s is not a list of strings, not changed: %w", b, err)
			}
		}
		have := map[string]bool{}
		for _, r := range list {
			have[r] = true
		}
		for _, r := range rules {
			if !have[r] {
				have[r] = true
				list = append(list, r)
			}
		}
		perms[string(b)] = mustMarshal(list)
		root["permissions"] = mustMarshal(perms)
		out, err := json.MarshalIndent(root, "", "  ")
		if err != nil {
			return nil, err
		}
		return append(out, '\n'), nil
	})
}
