// A whole game of Rummy 51 through `shanghai-rummy serve --stdio`, from Node with no build
// step: seat 0 is this script (it picks a random legal move), seat 1 is the library's greedy
// bot. Every document received is validated with ajv against the library's JSON Schema
// (draft 2020-12, strict mode, all errors).
//
//   npm ci && node play.js [seed]            (SHANGHAI_RUMMY_SERVE: the command to run)
//
// It prints one JSON line: the moves played, the documents validated, the totals, and what
// ajv says of a damaged Discard ({"card": "11H"}).
"use strict";
const { spawn } = require("node:child_process");
const readline = require("node:readline");
const Ajv2020 = require("ajv/dist/2020");

// --- the glue: one JSON line per request, one per reply, in order -----------------------
function startServer(command) {
  const [program, ...args] = command.split(" ");
  const child = spawn(program, args, { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  readline.createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()(JSON.parse(line)));
  const send = (request) => new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin.write(JSON.stringify(request) + "\n");
  });
  const ask = async (request) => {
    const reply = await send(request);
    if (!reply.ok) throw new Error(`${request.op}: ${reply.error.code}: ${reply.error.message}`);
    return reply.result;
  };
  return { send, ask, close: () => child.stdin.end() };
}
// -----------------------------------------------------------------------------------------

function randomFrom(seed) { // a small seeded generator (mulberry32), so a seed replays
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const seed = Number(process.argv[2] ?? 7);
  const random = randomFrom(seed);
  const server = startServer(process.env.SHANGHAI_RUMMY_SERVE ?? "shanghai-rummy serve --stdio");
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const validate = ajv.compile(await server.ask({ op: "schema" }));
  let validated = 0;
  const check = (document) => {
    if (!validate(document)) throw new Error(JSON.stringify(validate.errors.slice(0, 3)));
    validated += 1;
  };
  const event = (data) => ({ format: "shanghai-rummy", version: 1, type: "event", data });

  const { table } = await server.ask({ op: "create", variant: "rummy51", seats: ["person", "greedy"], seed });
  let moves = 0;
  for (;;) {
    const view = await server.ask({ op: "view", table, seat: 0 });
    check(view);
    if (view.data.phase === "game_over") break;
    const legal = await server.ask({ op: "legal", table, seat: 0 });
    const { action, label } = legal[Math.floor(random() * legal.length)];
    if (legal.map((entry) => entry.label).join("|") !== view.data.labels.join("|")) throw new Error("labels differ");
    const done = await server.ask({ op: "act", table, seat: 0, action: moves % 2 ? label : action });
    done.events.forEach((data) => check(event(data)));
    moves += 1;
  }
  const record = await server.ask({ op: "record", table });
  check(record);

  // a damaged Discard: ajv says where, and so does the server (which changes nothing)
  const damaged = { format: "shanghai-rummy", version: 1, type: "action", data: { type: "discard", seat: 0, card: "11H" } };
  validate(damaged);
  const refused = await server.send({ op: "act", table, seat: 0, action: damaged });
  const final = (await server.ask({ op: "view", table, seat: null })).data;
  server.close();
  console.log(JSON.stringify({
    moves,
    documents_validated: validated,
    totals: final.totals,
    damaged_discard: {
      ajv_errors: validate.errors.length,
      first_error_at: validate.errors[0].instancePath,
      server_error: refused.error,
    },
  }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
