package fsutil

import (
	"fmt"
	"io/fs"
	"os"
)

// ReadRegularFile is os.ReadFile for a file that must be a regular one
// (after symbolic links): a named pipe or a device found where a
// configuration file was expected is refused instead of read, since
// reading a pipe nobody writes to waits forever.
func ReadRegularFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", path, kindOf(fi.Mode()))
	}
	return os.ReadFile(path)
}

// kindOf names the kind of a file that is not a regular one.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return fmt.Sprintf("a special file (%s)", m.Type())
}
