package fsutil

import (
	"os"
	"os/exec"
)

// bashPlaces are where bash is installed on the systems reins runs on,
// tried when PATH does not find it.
var bashPlaces = [...]string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash"}

// FindBash returns the bash to run: the one on PATH, else the first of
// the usual install places that is an executable file, else "". A
// program that starts reins with an environment of its own (the Agent
// SDK's env option without PATH) still gets a shell this way.
func FindBash() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	for _, p := range bashPlaces {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
