package gitinfo

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// openFile opens name for reading without handing it to the runtime's
// network poller. os.Open tries that for every file and, for a regular
// file, fails and undoes it: five system calls beside the open. The log
// reader opens a dozen small files per call, where those calls are a
// third of its cost.
func openFile(name string) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return os.NewFile(uintptr(fd), name), nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

// readFile is os.ReadFile through openFile.
func readFile(name string) ([]byte, error) {
	f, err := openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, nil
}
