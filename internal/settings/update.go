package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"reins/internal/fsutil"
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
	// A named pipe or a device in the file's place is refused, as the
	// loaders refuse it: reading a pipe nobody writes to waits forever,
	// and the rename below would replace it.
	old, err := fsutil.ReadRegularFile(path)
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
// skipping rules already present. The file keeps its keys' order and its
// values as written (no "&" turned into "\u0026"); it is re-indented with
// two spaces. A file that is not a valid JSON object is left alone and
// reported. A settings.local.json it creates is kept out of git
// (ExcludeFromGit).
func AddRules(path string, b Behavior, rules []string) error {
	_, statErr := os.Stat(path)
	err := addRules(path, b, rules)
	if err == nil && errors.Is(statErr, fs.ErrNotExist) && filepath.Base(path) == "settings.local.json" {
		// Failing to keep it out of git is no reason to fail the save.
		_ = ExcludeFromGit(context.Background(), path)
	}
	return err
}

func addRules(path string, b Behavior, rules []string) error {
	return editObject(path, func(root []member) ([]member, error) {
		pi := lastMember(root, "permissions")
		var perms []member
		if pi >= 0 {
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(root[pi].raw, &probe); err != nil {
				return nil, fmt.Errorf("permissions is not an object, not changed: %w", err)
			}
			perms, _ = members(root[pi].raw)
		}
		li := lastMember(perms, string(b))
		var list []string
		if li >= 0 {
			if err := json.Unmarshal(perms[li].raw, &list); err != nil {
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
		perms = setMember(perms, li, string(b), encodeJSON(list))
		return setMember(root, pi, "permissions", objectFrom(perms)), nil
	})
}

// SetValue sets the value at keys (a path of object keys, such as
// "modelSettings", "claude-opus-4-1", "effortLevel") in the settings file
// at path, making the objects on the way that are missing, keeping every
// other key, their order and their values as written. It refuses, leaving
// the file alone, when the file or an object on the way is not a JSON
// object.
func SetValue(path string, keys []string, value any) error {
	if len(keys) == 0 {
		return errors.New("set a settings value: no key given")
	}
	return editObject(path, func(root []member) ([]member, error) {
		return setPath(root, keys, encodeJSON(value), keys[0])
	})
}

// setPath sets raw at keys inside the object ms; where names the part
// of the path walked so far, for errors.
func setPath(ms []member, keys []string, raw json.RawMessage, where string) ([]member, error) {
	i := lastMember(ms, keys[0])
	if len(keys) == 1 {
		return setMember(ms, i, keys[0], raw), nil
	}
	var inner []member
	if i >= 0 {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(ms[i].raw, &probe); err != nil || probe == nil {
			return nil, fmt.Errorf("%s is not an object, not changed", where)
		}
		inner, _ = members(ms[i].raw)
	}
	inner, err := setPath(inner, keys[1:], raw, where+"."+keys[1])
	if err != nil {
		return nil, err
	}
	return setMember(ms, i, keys[0], objectFrom(inner)), nil
}

// editObject rewrites the settings file at path (see UpdateFile) through
// fn, which changes the members of its top-level object. The result is
// indented with two spaces. A file that is not a JSON object is left
// alone and reported.
func editObject(path string, fn func(root []member) ([]member, error)) error {
	return UpdateFile(path, 0o644, func(old []byte) ([]byte, error) {
		old = bytes.TrimPrefix(old, []byte("\xef\xbb\xbf"))
		var root []member
		if len(bytes.TrimSpace(old)) > 0 {
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(old, &probe); err != nil {
				return nil, fmt.Errorf("not a JSON object, not changed: %w", err)
			}
			root, _ = members(old)
		}
		root, err := fn(root)
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		if err := json.Indent(&out, objectFrom(root), "", "  "); err != nil {
			return nil, err
		}
		out.WriteByte('\n')
		return out.Bytes(), nil
	})
}

// lastMember returns the index of the last member named key (the one a
// decoder keeps), or -1.
func lastMember(ms []member, key string) int {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return i
		}
	}
	return -1
}

// setMember sets the value of member i, or appends a member key when i is
// -1.
func setMember(ms []member, i int, key string, raw json.RawMessage) []member {
	if i < 0 {
		return append(ms, member{key: key, raw: raw})
	}
	ms[i].raw = raw
	return ms
}

// encodeJSON encodes v without escaping <, > and &, so that commands and
// rules read as written.
func encodeJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Values here are strings and lists of strings, which encode.
		panic("settings: encoding a value: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
