//go:build !linux

package fastpath

// nativeStatusOS says package gitinfo can read the status natively here;
// elsewhere it always runs git.
const nativeStatusOS = false
