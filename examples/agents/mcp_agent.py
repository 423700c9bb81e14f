#!/usr/bin/env python3
"""A small outside agent for `contractbench run --agent exec`, in Python with
only the standard library: it speaks MCP's streamable HTTP transport itself
(JSON-RPC over HTTP POST, answers as JSON or as a server-sent event stream)
rather than through an SDK.

It has no model. Its policy is a fixed plan for task-10 (open the ECMAScript
specification on tc39.es and go to the section that defines strict mode
code): find a link by its text, click it, twice. Each step reads the refs
the `find` tool returns, so the plan follows the page rather than replaying
recorded refs. Put your own agent's loop where the plan is.

    contractbench run --agent exec --agent-cmd 'python3 examples/agents/mcp_agent.py' --task task-10 --gate

The environment contract is in docs/agents.md. The final answer is what
the agent prints on stdout; logs go to stderr.
"""

import json
import os
import re
import sys
import urllib.request

PROTOCOL_VERSION = "2025-06-18"

# The plan: (text to find, words the link's name must contain).
PLAN = [
    ("ECMAScript specification", "ecmascript specification"),
    ("Strict Mode Code", "strict mode code"),
]


def log(msg):
    print(f"mcp_agent.py: {msg}", file=sys.stderr, flush=True)


class MCPClient:
    """A minimal MCP client over streamable HTTP: one session, requests in
    turn, no server-to-client requests."""

    def __init__(self, url):
        self.url = url
        self.session = None
        self.next_id = 1

    def _post(self, message):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL_VERSION,
        }
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        req = urllib.request.Request(self.url, data=json.dumps(message).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(req, timeout=60) as resp:
            self.session = resp.headers.get("Mcp-Session-Id", self.session)
            kind = resp.headers.get("Content-Type", "")
            body = resp.read().decode()
        if "id" not in message:
            return None  # a notification: 202 Accepted, no body
        if kind.startswith("text/event-stream"):
            return self._from_events(body, message["id"])
        return self._check(json.loads(body))

    def _from_events(self, body, want_id):
        # Each event's data lines form one JSON-RPC message; the answer is
        # the one with our id.
        for event in re.split(r"\r?\n\r?\n", body):
            data = "\n".join(line[5:].lstrip() for line in event.splitlines() if line.startswith("data:"))
            if not data:
                continue
            msg = json.loads(data)
            if msg.get("id") == want_id:
                return self._check(msg)
        raise RuntimeError(f"no answer to request {want_id} in the event stream")

    @staticmethod
    def _check(msg):
        if "error" in msg:
            raise RuntimeError(f"MCP error: {msg['error']}")
        return msg["result"]

    def request(self, method, params):
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.next_id += 1
        return self._post(msg)

    def initialize(self):
        result = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "contractbench-example-python", "version": "1"},
        })
        self._post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def call(self, name, args):
        result = self.request("tools/call", {"name": name, "arguments": args})
        text = "\n".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")
        log(f"{name} {json.dumps(args)} -> {'error' if result.get('isError') else 'ok'}")
        if result.get("isError"):
            raise RuntimeError(f"{name}: {text}")
        return text

    def close(self):
        if not self.session:
            return
        req = urllib.request.Request(self.url, method="DELETE", headers={"Mcp-Session-Id": self.session})
        try:
            urllib.request.urlopen(req, timeout=10).close()
        except OSError:
            pass  # the harness may already have closed the endpoint


def link_ref(found, words):
    """The ref of the first control in a find reply whose name contains
    words: replies list controls as [name](eN ...)."""
    for name, ref in re.findall(r"\[([^\]]*)\]\((e\d+)\b", found):
        if words in name.lower():
            return ref, name
    raise RuntimeError(f"no control named like {words!r} in: {found[:400]}")


def main():
    for name in ("CONTRACTBENCH_MCP_URL", "CONTRACTBENCH_INSTRUCTION"):
        if not os.environ.get(name):
            log(f"{name} is not set; run me with contractbench run --agent exec")
            return 2
    client = MCPClient(os.environ["CONTRACTBENCH_MCP_URL"])
    try:
        info = client.initialize()
        log(f"connected to {info.get('serverInfo', {}).get('name')}")
        name = ""
        for query, words in PLAN:
            ref, name = link_ref(client.call("find", {"query": query}), words)
            client.call("click", {"ref": ref})
        usage = os.environ.get("CONTRACTBENCH_USAGE_FILE")
        if usage:
            with open(usage, "w") as f:
                json.dump({"model": "scripted", "input_tokens": 0, "output_tokens": 0, "usd": 0}, f)
        print(f"The section is {name}.")
        return 0
    finally:
        client.close()


if __name__ == "__main__":
    sys.exit(main())
