//go:build linux

package fastpath

// nativeStatusOS says package gitinfo can read the status natively here
// (its stat reader is Linux's).
const nativeStatusOS = true
