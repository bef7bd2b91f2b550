package fsutil

import (
	"fmt"
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
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	return os.ReadFile(path)
}
