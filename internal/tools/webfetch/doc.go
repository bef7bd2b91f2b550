// Package webfetch is the WebFetch tool: it downloads a page, converts
// HTML to Markdown (tables kept), and has a small, fast model answer the
// caller's prompt about it.
//
// Fetching rules: http is upgraded to https except for loopback hosts;
// redirects are followed only while they keep the scheme and the host (a
// leading "www." does not count as a change) and carry no credentials,
// and any other redirect is reported to the model with the new URL
// instead of followed; responses over MaxBytes are refused; content that
// is not text (a PDF, an image) is saved to a file in Tool.SaveDir and
// its path returned for Read; each fetch has a time limit; and converted
// pages are cached for CacheTTL. CLAUDE_CODE_WEBFETCH_DEADLINE_MS and
// CLAUDE_CODE_WEBFETCH_CACHE_TTL_MS (EnvLimits) change the last two, as
// in Claude Code. With no model configured the tool
// returns the Markdown itself, cut to fit the result limit.
//
// The structured result has Claude Code's fields: bytes, code, codeText,
// result, durationMs, url.
//
// This package must not import the engine or any front end.
package webfetch
