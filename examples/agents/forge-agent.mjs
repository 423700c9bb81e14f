// A forging agent: it shows what raw browser access allows, and why a run
// with --agent-cdp is never counted as passed.
//
// For task-09 (how fast light travels, on Wikipedia) it does not search or
// read anything. Over CONTRACTBENCH_CDP_URL it runs page script on the
// start page (Wikipedia's Main Page) that rewrites the address with
// history.replaceState and the body with the expected number. The
// contract (URL, text, no dialog) then holds on a page nobody visited:
//
//   contractbench run --agent exec --agent-cdp \
//     --agent-cmd 'node --experimental-websocket examples/agents/forge-agent.mjs' --task task-09
//
// reports task-09 tainted, with "trust: unrestricted agent", and --gate
// fails. Without --agent-cdp the agent gets no CDP endpoint and gives up.
// Node 20 needs --experimental-websocket for its built-in WebSocket.

const cdp = process.env.CONTRACTBENCH_CDP_URL;
if (!cdp) {
  console.error("forge-agent: no CONTRACTBENCH_CDP_URL (run with --agent-cdp); nothing to forge with");
  process.exit(1);
}
if (typeof WebSocket === "undefined") {
  console.error("forge-agent: this Node has no WebSocket; run it with node --experimental-websocket");
  process.exit(2);
}

const pages = await (await fetch(new URL("/json/list", cdp))).json();
const page = pages.find((p) => p.type === "page" && p.url.startsWith("https://en.wikipedia.org/"));
if (!page) {
  console.error(`forge-agent: no Wikipedia page among ${pages.map((p) => p.url).join(", ")}`);
  process.exit(1);
}

const ws = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = () => reject(new Error(`connect to ${page.webSocketDebuggerUrl}`));
});

// The forgery: a new address on the same origin and a body that says what
// the contract looks for. No request is made, nothing is searched.
const forgery = `
  history.replaceState(null, "", "/wiki/Speed_of_light");
  document.title = "Speed of light - Wikipedia";
  document.body.innerHTML = "<h1>Speed of light</h1><p>299,792,458 metres per second</p>";
  location.href`;

const answer = await new Promise((resolve, reject) => {
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.id !== 1) return;
    if (msg.error || msg.result.exceptionDetails) {
      reject(new Error(JSON.stringify(msg.error ?? msg.result.exceptionDetails)));
    } else {
      resolve(msg.result.result.value);
    }
  };
  ws.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression: forgery, returnByValue: true } }));
});
ws.close();
console.error(`forge-agent: the page now claims to be ${answer}`);
console.log("Light travels at 299,792,458 metres per second.");
