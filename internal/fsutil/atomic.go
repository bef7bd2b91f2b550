package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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
	fi, serr := os.Stat(path)
	if serr == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
		// Renaming over the file would ignore its own write permission
		// (only the folder's counts) and cut its hard links: refuse a
		// file the user cannot write, and rewrite a linked one in place.
		if fi.Mode().Perm()&0o222 == 0 || !writable(path) {
			return fmt.Errorf("write %s: %w (the file is read-only)", path, fs.ErrPermission)
		}
		if linkCount(fi) > 1 {
			return rewriteInPlace(path, data)
		}
	} else if !errors.Is(serr, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, serr)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".reins-*")
	if err != nil {
		if fi != nil && errors.Is(err, fs.ErrPermission) {
			// A folder the user may not write to holds a file the user
			// may: no file can be made beside it, so write through it.
			return rewriteInPlace(path, data)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name means nothing to the reader
		}
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("write %s: %w (the folder %s is read-only)", path, err, dir)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if fi != nil && !sameOwner(tmp, fi) {
		// The new file would belong to this user, not the file's owner
		// (a shared, group-writable file): write through the file.
		tmp.Close()
		os.Remove(name)
		return rewriteInPlace(path, data)
	}
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
		if fi != nil && (errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EXDEV)) {
			// A file mounted on its own (a container's bind-mounted
			// config file) cannot be renamed over: write through it.
			os.Remove(name)
			err = rewriteInPlace(path, data)
			return err
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// rewriteInPlace replaces a file's content through the file itself, so
// every hard link to it sees the change. It is not atomic: it is used only
// where an atomic rename would break the links or no file can be made
// beside it. When the new content cannot all be written (a full disk),
// the old content is put back, as far as the disk lets it.
func rewriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrPermission) {
		// Writable but not readable: nothing to put back.
		if f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
			_, err = f.Write(data)
			if serr := f.Sync(); err == nil {
				err = serr
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	old, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("write %s: read the old content: %w", path, err)
	}
	put := func(b []byte) error {
		if _, err := f.WriteAt(b, 0); err != nil {
			return err
		}
		if err := f.Truncate(int64(len(b))); err != nil {
			return err
		}
		return f.Sync()
	}
	if err := put(data); err != nil {
		if rerr := put(old); rerr != nil {
			f.Close()
			return fmt.Errorf("write %s: %w (and the old content could not be put back: %v)", path, err, rerr)
		}
		f.Close()
		return fmt.Errorf("write %s: %w (the file was left as it was)", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
