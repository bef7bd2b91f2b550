//go:build !linux

package gitinfo

import "fmt"

// statData is the stat information git records in the index.
type statData struct {
	ctimeSec, ctimeNsec uint32
	mtimeSec, mtimeNsec uint32
	dev, ino            uint32
	mode                uint32
	uid, gid            uint32
	size                uint32
	fullSize            int64
}

// lstatData is not implemented on this system: the built-in status
// declines and git runs.
func lstatData(name string) (statData, error) {
	return statData{}, fmt.Errorf("lstat %s: %w", name, errUnsupported)
}

// statSupported reports whether lstatData reads real stat data here.
const statSupported = false
