// Messages the engine's Zones send (src/laminar/mailbox.ts's records:
// REC doubles each, delivered one delay, half a hop, after they are sent);
// the host collects them at the end of each run call.
import { F_DELTA, F_OUT_N, F_OUTBOX, REC } from "./layout";
import { E, getf, geti, ptr, seti } from "./state";

export function send(z: i32, kind: i32, dest: f64, a: f64, b: f64, c: f64, x: f64, y: f64, w: f64): void {
  const n = geti(F_OUT_N);
  seti(F_OUT_N, n + 1);
  const p = ptr(F_OUTBOX) + <usize>n * (REC << 3);
  store<f64>(p, load<f64>(E) + getf(F_DELTA));
  store<f64>(p, <f64>z, 8);
  store<f64>(p, <f64>kind, 16);
  store<f64>(p, dest, 24);
  store<f64>(p, a, 32);
  store<f64>(p, b, 40);
  store<f64>(p, c, 48);
  store<f64>(p, x, 56);
  store<f64>(p, y, 64);
  store<f64>(p, w, 72);
}
