// A small outside agent for `contractbench run --agent exec`, written with
// the official MCP TypeScript SDK (@modelcontextprotocol/sdk, pinned in the
// repository's package.json and installed by `make peers`).
//
// It has no model. Its policy is scripted and fixed: open the first host
// name the instruction mentions (or the start page), read the page, and
// answer with the page's first heading. That is enough for task-01 ("Open
// example.com and tell me what the page's main heading says") and for
// nothing that needs a decision. Put your own agent's loop where the
// policy is.
//
//   contractbench run --agent exec --agent-cmd 'node examples/agents/mcp-agent.mjs' --task task-01 --gate
//
// The environment contract (docs/agents.md):
//   CONTRACTBENCH_MCP_URL      the harness's MCP tool server, streamable HTTP
//   CONTRACTBENCH_INSTRUCTION  the task as a user would ask it
//   CONTRACTBENCH_START_URL    the page the browser was opened on (may be empty)
//   CONTRACTBENCH_USAGE_FILE   where to write token counts and cost, as JSON
// The final answer is what the agent prints on stdout; logs go to stderr.

import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const env = process.env;
for (const name of ["CONTRACTBENCH_MCP_URL", "CONTRACTBENCH_INSTRUCTION"]) {
  if (!env[name]) {
    console.error(`mcp-agent: ${name} is not set; run me with contractbench run --agent exec`);
    process.exit(2);
  }
}

// The text parts of a tool result, joined.
function text(result) {
  return (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

const client = new Client({ name: "contractbench-example-node", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(env.CONTRACTBENCH_MCP_URL)));

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  console.error(`mcp-agent: ${name} ${JSON.stringify(args)} -> ${result.isError ? "error" : "ok"}`);
  if (result.isError) {
    throw new Error(`${name}: ${text(result)}`);
  }
  return text(result);
}

try {
  const { tools } = await client.listTools();
  console.error(`mcp-agent: tools offered: ${tools.map((t) => t.name).join(", ")}`);

  // The scripted policy.
  const host = env.CONTRACTBENCH_INSTRUCTION.match(/\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b/i)?.[1];
  if (host) {
    await call("navigate", { url: `https://${host.toLowerCase()}/` });
  } else if (!env.CONTRACTBENCH_START_URL) {
    throw new Error("the instruction names no host and there is no start page");
  }
  const page = await call("read_page", { mode: "text" });
  const heading = page.split("\n").find((line) => line.startsWith("# "));
  const answer = heading ? heading.slice(2).trim() : page.split("\n").find((l) => l.trim() && !/^(url|title):/.test(l));

  // No model ran, so nothing was spent; an agent with a model writes its
  // totals here (docs/agents.md has the shape).
  if (env.CONTRACTBENCH_USAGE_FILE) {
    writeFileSync(env.CONTRACTBENCH_USAGE_FILE, JSON.stringify({ model: "scripted", input_tokens: 0, output_tokens: 0, usd: 0 }));
  }
  console.log(answer ?? "");
} finally {
  await client.close();
}
