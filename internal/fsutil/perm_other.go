//go:build !unix

package fsutil

import "io/fs"

func writable(string) bool { return true }

func linkCount(fs.FileInfo) uint64 { return 1 }
