// Package websearch is the WebSearch tool. It sends a side request to
// the model provider with Anthropic's server-side web search tool
// (web_search_20250305) in the tool list, the query as the user message,
// and the caller's domain filters; the provider runs the searches and
// answers with server_tool_use and web_search_tool_result blocks and a
// cited summary.
//
// Those server blocks are kept byte for byte (llm.ContentBlock.Raw) in the
// structured result; the model sees a list of the pages found (title and
// URL) and the summary with its sources. With a provider that has no
// server-side search, every call fails with a not-available error.
//
// This package must not import the engine or any front end.
package websearch
