package cli

import "reins/internal/fastpath"

// Version is reins's own version.
const Version = fastpath.Version

// versionLine is what --version prints.
func versionLine() string { return fastpath.VersionLine }
