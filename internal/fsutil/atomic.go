package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the contents of path with data atomically: data is
// written to a temporary file in the same folder, synced, given the mode
// of the file it replaces (or perm for a new file), and renamed over
// path. Readers see the old or the new contents, never a mix, and a
// failure leaves the old file untouched and no temporary file behind.
//
// A symlink at path is followed, so the link stays a link and its target
// is replaced. The parent folder must exist.
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	if real, rerr := Resolve(path); rerr == nil {
		path = real
	}
	mode := perm
	if fi, serr := os.Stat(path); serr == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	} else if !errors.Is(serr, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, serr)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".reins-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: set mode: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
