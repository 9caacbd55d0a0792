// The determinism rules for Zone-partitioned runs (docs/sim-engine.md), on a
// toy model: Zones draw only from their own stream, touch only their own
// state, and reach other Zones only by messages that take at least one window
// length L. Workers each run an Engine over their Zones in windows of L;
// between windows, outgoing messages are merged in (delivery time, source
// Zone, source sequence) order and scheduled at their destinations. W = 1 is
// the same code with one worker. Each Zone's trace must then be identical
// whatever the number of workers.
import { describe, expect, it } from "vitest";
import { Engine } from "../../src/sim/engine.js";
import { Fingerprint } from "../../src/sim/fingerprint.js";
import { type Rng, Streams } from "../../src/sim/rng.js";
import { ms, us } from "../../src/sim/time.js";

const ZONES = 6, TASKS = 40, L = us(200), WINDOWS = 300;
const WORK = 0, DONE = 1, MSG = 2, TTL = 3;

interface Message { at: number; srcZone: number; srcSeq: number; dst: number }

class Worker {
  readonly engine = new Engine();
  readonly rng = new Map<number, Rng>();
  readonly ttl = new Float64Array(ZONES * TASKS).fill(-1);
  readonly sent = new Int32Array(ZONES);
  outbox: Message[] = [];

  constructor(readonly zones: number[], seed: number, readonly fps: Fingerprint[], readonly traces: string[][]) {
    const streams = new Streams(seed); // each worker its own factory: streams depend on the key only
    for (const z of zones) this.rng.set(z, streams.get("zone", z));
    for (const z of zones) {
      const r = this.rng.get(z)!;
      for (let t = 0; t < TASKS; t++) this.engine.post(r.int(ms(2)), WORK, z * TASKS + t);
    }
  }

  readonly dispatch = (kind: number, subject: number): void => {
    const e = this.engine, z = Math.floor(subject / TASKS), r = this.rng.get(z)!;
    this.fps[z].add(e.now, kind, subject);
    this.traces[z].push(`${e.now}:${kind}:${subject}`);
    switch (kind) {
      case WORK:
        e.post(Math.round(r.exp(ms(1))), DONE, subject);
        this.ttl[subject] = e.schedule(us(1500), TTL, subject);
        break;
      case DONE:
        e.cancel(this.ttl[subject]); // false when the TTL already fired: harmless
        if (r.bernoulli(0.3)) {
          const dst = r.int(ZONES) * TASKS + r.int(TASKS);
          this.outbox.push({ at: e.now + L + r.int(L), srcZone: z, srcSeq: this.sent[z]++, dst });
        } else {
          e.post(Math.round(r.exp(us(700))), WORK, subject);
        }
        break;
      case MSG:
        e.post(0, WORK, subject);
        break;
      case TTL: // the task overran: note it; its DONE still comes
        this.ttl[subject] = -1;
        break;
    }
  };
}

/** Run the model on `workers` workers; returns each Zone's fingerprint and trace. */
function runPartitioned(workers: number, seed: number): { fps: string[]; traces: string[][] } {
  const fps = Array.from({ length: ZONES }, () => new Fingerprint());
  const traces = Array.from({ length: ZONES }, () => [] as string[]);
  const ws = Array.from({ length: workers }, (_, w) =>
    new Worker(Array.from({ length: ZONES }, (_, z) => z).filter((z) => z % workers === w), seed, fps, traces));
  const owner = (subject: number): Worker => ws[Math.floor(subject / TASKS) % workers];
  for (let k = 1; k <= WINDOWS; k++) {
    for (const w of ws) w.engine.run(k * L, w.dispatch);
    const mail = ws.flatMap((w) => w.outbox).sort((a, b) => a.at - b.at || a.srcZone - b.srcZone || a.srcSeq - b.srcSeq);
    for (const w of ws) w.outbox = [];
    for (const m of mail) {
      expect(m.at).toBeGreaterThanOrEqual(k * L); // the lookahead the windows rely on
      owner(m.dst).engine.at(m.at, MSG, m.dst);
    }
  }
  return { fps: fps.map((f) => f.hex()), traces };
}

describe("Zone-partitioned runs", () => {
  it("give every Zone the same trace for 1, 2, 3 and 6 workers", () => {
    const one = runPartitioned(1, 2024);
    expect(one.traces.every((t) => t.length > 1000)).toBe(true);
    for (const kind of [MSG, TTL]) expect(one.traces.some((t) => t.some((x) => x.includes(`:${kind}:`)))).toBe(true);
    for (const w of [2, 3, 6]) {
      const many = runPartitioned(w, 2024);
      expect(many.fps, `${w} workers`).toEqual(one.fps);
      expect(many.traces).toEqual(one.traces);
    }
  });

  it("changes with the seed", () => {
    expect(runPartitioned(2, 2025).fps).not.toEqual(runPartitioned(2, 2024).fps);
  });
});
