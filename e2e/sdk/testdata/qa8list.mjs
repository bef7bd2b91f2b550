// Runs a query with reins, then reads the session back with the SDK's
// listSessions, getSessionInfo and getSessionMessages without a
// sessionStore, and resumes it (run by qa8_sessions_test.go, which
// records reins's sessions into Claude Code's folder, or, with the
// argument reins-folder, points the SDK at reins's). Prints {"msg": …} per message,
// then {"summary": …}.
import { query, listSessions, getSessionInfo, getSessionMessages } from "@anthropic-ai/claude-agent-sdk";

const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const summary = {};
try {
  if (process.argv[2] === "reins-folder") process.env.CLAUDE_CONFIG_DIR = process.env.REINS_CONFIG_DIR;
  const options = { pathToClaudeCodeExecutable: process.env.REINS_BIN, stderr: (d) => process.stderr.write(d) };
  for await (const m of query({ prompt: "remember KIWI", options })) {
    print({ msg: m });
    if (m.type === "result") summary.first = m.session_id;
  }
  summary.listed = (await listSessions({ dir: process.cwd() })).map((s) => s.sessionId);
  summary.listedAll = (await listSessions()).map((s) => s.sessionId);
  summary.info = (await getSessionInfo(summary.first, { dir: process.cwd() }))?.summary ?? null;
  summary.firstMessages = (await getSessionMessages(summary.first, { dir: process.cwd() })).length;
  for await (const m of query({ prompt: "what was the word", options: { ...options, resume: summary.first } })) {
    print({ msg: m });
    if (m.type === "result") summary.resumed = m.session_id;
  }
  summary.resumedMessages = (await getSessionMessages(summary.first, { dir: process.cwd() })).length;
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
