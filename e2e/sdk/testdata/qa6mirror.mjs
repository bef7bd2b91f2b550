// Runs two queries with the TypeScript SDK's sessionStore option (reins
// started with --session-mirror), the second resuming the first from the
// store, and reads the session back from the store (run by
// qa6_sessions_test.go). Prints {"msg": …} per message, then {"summary": …}.
import { query, InMemorySessionStore, listSessions, getSessionMessages } from "@anthropic-ai/claude-agent-sdk";

const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const summary = {};
try {
  const store = new InMemorySessionStore();
  const options = { pathToClaudeCodeExecutable: process.env.REINS_BIN, stderr: (d) => process.stderr.write(d), sessionStore: store };
  for await (const m of query({ prompt: "remember KIWI", options })) {
    print({ msg: m });
    if (m.type === "result") summary.first = m.session_id;
  }
  summary.listed = (await listSessions({ dir: process.cwd(), sessionStore: store })).map((s) => s.sessionId);
  summary.firstMessages = (await getSessionMessages(summary.first, { dir: process.cwd(), sessionStore: store })).length;
  for await (const m of query({ prompt: "what was the word", options: { ...options, resume: summary.first } })) {
    print({ msg: m });
    if (m.type === "result") summary.resumed = m.session_id;
  }
  summary.resumedMessages = (await getSessionMessages(summary.first, { dir: process.cwd(), sessionStore: store })).length;
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
