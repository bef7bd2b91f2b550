//go:build !linux

package search

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Outside Linux the walker uses the os package.

type dirHandle struct{ path string }

func openDir(path string) (dirHandle, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return dirHandle{}, err
	}
	if !fi.IsDir() {
		return dirHandle{}, &fs.PathError{Op: "open", Path: path, Err: fs.ErrInvalid}
	}
	return dirHandle{path: path}, nil
}

func (d dirHandle) close() {}

func (d dirHandle) readEntries(_ []byte, out []dirent) ([]dirent, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return out, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	for _, e := range ents {
		t := typeOther
		switch m := e.Type(); {
		case m.IsDir():
			t = typeDir
		case m.IsRegular():
			t = typeFile
		case m&fs.ModeSymlink != 0:
			t = typeSymlink
		}
		out = append(out, dirent{name: e.Name(), typ: t})
	}
	return out, err
}

func (d dirHandle) lstat(name string) entryType {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return typeOther
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		return typeDir
	case m.IsRegular():
		return typeFile
	case m&fs.ModeSymlink != 0:
		return typeSymlink
	}
	return typeOther
}

func (d dirHandle) modTime(name string) (time.Time, error) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

type fileHandle struct{ f *os.File }

func (d dirHandle) openFile(name string) (fileHandle, error) {
	return openFilePath(filepath.Join(d.path, name))
}

func openFilePath(path string) (fileHandle, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileHandle{}, err
	}
	return fileHandle{f: f}, nil
}

func (f fileHandle) close() { f.f.Close() }

func (f fileHandle) read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	if err == io.EOF {
		err = nil
	}
	return n, err
}

func (f fileHandle) stat() (int64, time.Time, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return 0, time.Time{}, err
	}
	return fi.Size(), fi.ModTime(), nil
}

// mmap reads the file instead of mapping it.
func (f fileHandle) mmap(size int64) ([]byte, func(), error) {
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	data := make([]byte, size)
	n, err := io.ReadFull(f.f, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, nil, err
	}
	return data[:n], func() {}, nil
}
