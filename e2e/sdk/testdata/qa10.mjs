// Drives reins with the TypeScript Agent SDK for qa10_sdk_test.go: one
// query() option per scenario (the first argument). Prints {"msg": …} for
// every message the SDK yields, then {"summary": …} with what the
// scenario observed.
import { query, getSessionInfo, createSdkMcpServer, tool, SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";

const scenario = process.argv[2];
const summary = { stderr: "" };
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const base = {
  pathToClaudeCodeExecutable: process.env.REINS_BIN,
  stderr: (d) => (summary.stderr += d),
};

async function run(prompt, options) {
  for await (const m of query({ prompt, options: { ...base, ...options } })) {
    print({ msg: m });
    if (m.type === "result") summary.session = m.session_id;
  }
}

const scenarios = {
  // A string-list system prompt parted by the SDK's boundary marker.
  boundary: () => run("Hi.", { systemPrompt: ["SHARED-PART.", SYSTEM_PROMPT_DYNAMIC_BOUNDARY, "SESSION-PART."] }),
  // The title option names a new session; a resumed one keeps its name.
  title: async () => {
    await run("Hi.", { title: "Release checklist" });
    const first = summary.session;
    summary.titled = (await getSessionInfo(first, { dir: process.cwd() }))?.customTitle ?? null;
    await run("Again.", { resume: first, title: "Another name" });
    summary.resumedTitle = (await getSessionInfo(first, { dir: process.cwd() }))?.customTitle ?? null;
  },
  // Policy from the host: its deny rule holds over allowedTools, and its
  // allow rule (which would widen) is dropped.
  managed: () =>
    run("Make the files.", {
      allowedTools: ["Bash"],
      managedSettings: { permissions: { deny: ["Bash(touch:*)"], allow: ["Write"] } },
    }),
  // permissionPrompts 'none': nobody answers, so canUseTool is never
  // called and what it would be asked is denied.
  noPrompts: async () => {
    summary.asked = [];
    await run("Make the file.", {
      permissionPrompts: "none",
      canUseTool: async (name, input) => {
        summary.asked.push(name);
        return { behavior: "allow", updatedInput: input };
      },
    });
  },
  // skills as a list: the model sees and may load those alone.
  skills: () => run("Use the skills.", { skills: ["alpha"] }),
  // planModeInstructions: the host's planning workflow for plan mode.
  planInstructions: () =>
    run("Plan it.", { permissionMode: "plan", planModeInstructions: "HOST-WORKFLOW: list the risks first." }),
  // reconnectMcpServer, for a server the SDK hosts and a stdio one: the
  // status right after says connected, and the next turn uses both.
  reconnect: async () => {
    const shout = tool("shout", "Shout the text.", { text: z.string() }, async (a) => ({ content: [{ type: "text", text: a.text.toUpperCase() }] }));
    const hosted = createSdkMcpServer({ name: "hosted", version: "1.0.0", tools: [shout] });
    const reverser = { command: process.execPath, args: [new URL("./stdio-server.mjs", import.meta.url).pathname] };
    let q, next;
    const turnDone = () => new Promise((r) => (next = r));
    async function* messages() {
      let done = turnDone();
      yield { type: "user", message: { role: "user", content: "One." }, parent_tool_use_id: null, session_id: "" };
      await done;
      summary.reconnected = [];
      for (const name of ["hosted", "reverser"]) {
        summary.reconnected.push(await q.reconnectMcpServer(name).then(() => name + " ok", (e) => name + " " + String(e?.message ?? e)));
      }
      summary.status = (await q.mcpServerStatus()).map((s) => s.name + " " + s.status).sort();
      done = turnDone();
      yield { type: "user", message: { role: "user", content: "Two." }, parent_tool_use_id: null, session_id: "" };
      await done;
    }
    q = query({ prompt: messages(), options: { ...base, mcpServers: { hosted, reverser }, allowedTools: ["mcp__hosted__shout", "mcp__reverser__reverse"] } });
    for await (const m of q) {
      print({ msg: m });
      if (m.type === "result") next();
    }
  },
  // An env option without PATH (the SDK passes it as reins's whole
  // environment): Bash still finds bash, and bash its commands.
  noPath: () => {
    const { PATH, ...env } = process.env;
    return run("List.", { env, allowedTools: ["Bash"] });
  },
  // taskBudget: the advisory API task budget.
  taskBudget: () => run("Hi.", { taskBudget: { total: 50000 } }),
  // projectConfigRoot: the project's configuration from that folder.
  projectRoot: async () => {
    try {
      await run("Hi.", { projectConfigRoot: process.cwd() });
      summary.outcome = "ran";
    } catch (e) {
      summary.outcome = String(e?.message ?? e);
    }
  },
  // A turn that ends on an API error.
  apiError: () => run("Hi.", {}),
  // managedSettings, settings and disallowedTools sent in the initialize
  // request rather than on the command line.
  initDelivery: () =>
    run("Work.", {
      allowedTools: ["Bash"],
      managedSettingsDelivery: "initialize",
      managedSettings: { permissions: { deny: ["Bash(touch:*)"] } },
      settingsDelivery: "initialize",
      settings: { env: { FROM_INIT_SETTINGS: "yes" } },
      disallowedToolsDelivery: "initialize",
      disallowedTools: ["Write"],
    }),
};

try {
  const fn = scenarios[scenario];
  if (!fn) throw new Error("unknown scenario " + scenario);
  await fn();
} catch (e) {
  summary.error = String(e?.stack ?? e);
}
print({ summary });
