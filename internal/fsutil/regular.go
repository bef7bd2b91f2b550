package fsutil

import (
	"fmt"
	"io"
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

// ReadRegularFileMax is ReadRegularFile for a file that may hold at most
// max bytes: a larger one is refused without being read whole (a stray
// 100 MB file among the commands would otherwise be read at every start).
// The refusal gives the file's size and the limit.
func ReadRegularFileMax(path string, max int64) ([]byte, error) {
	// Stat before opening: opening a named pipe waits for a writer.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", path, kindOf(fi.Mode()))
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is too large (%s; the limit is %s)", path, FormatSize(fi.Size()), FormatSize(max))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may grow between the stat and the read.
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is too large (more than %s, the limit)", path, FormatSize(max))
	}
	return data, nil
}

// FormatSize writes a byte count for people: "512 bytes", "4.0 MB".
func FormatSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
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
