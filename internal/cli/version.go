package cli

// Version is reins's own version.
const Version = "0.1.0"

// versionLine is what --version prints.
func versionLine() string { return Version + " (reins)" }
