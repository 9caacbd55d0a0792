// The gateway's micro-batch into the engine (src/laminar/ingress.ts
// gatewayBatch and teg.ts dispatch are the twins): each waiting DA draws its
// Zone from TEG's weights, then its launchpad, a uniformly random node of
// that Zone, and crosses one lossy hop; those that arrive in one of this
// engine's Zones address their launchpad a hop from now. The host keeps TEG's
// table and weights (tegWeights) and its stream; the draws are the host's,
// number for number, in the same order.
import { E_ARG, E_COUNT, OK } from "../abi";
import { region, regionsCheck, regionsReset } from "../regions";
import { streamFloat, streamInt, streamIsZero } from "../stream";
import { tegPick } from "../teg-pick";
import { emitCheck, emitTake } from "./emit";
import { histNeed, histOn, histRecord } from "./history";
import { ready } from "./setup";
import { BLOCK_BYTES, EM_NODE, EM_TASK, EMIT_BYTES, EMIT_MEM_BYTES, F_HOP, F_LOSS, F_NOW, F_Z0, F_Z1, F_ZONES, ROOM_HIST } from "./layout";
import { getf, geti, leave, MX, offset, room } from "./state";

/**
 * A gateway batch of n DA emissions (records as engineEmit's at `src`; their
 * node fields are written here). With `cum` TEG's cumulative Zone weights
 * (f64[ZONES], tegWeights' output) and `rng` the gateway's stream (u32[4],
 * not all zero; written back): n draws u_i = float() pick each DA's Zone (the
 * first z with cum[z] > u_i * cum[ZONES - 1], as tegSample), then, DA by DA,
 * int(size of its Zone) its launchpad and, with LOSS > 0, float() < LOSS
 * loses it on the hop. A lost DA's task id goes to lost (i32[n], in order)
 * and its node field reads -1; so does a DA whose Zone is not this engine's
 * (another partition's: it draws the same). The others take a DA slot each
 * and address their launchpad one hop from now, in order (engineEmit).
 * Returns how many were lost; E_FULL (nothing drawn or taken: grow, then
 * call again), engineEmit's codes but E_ID for a node, region codes,
 * E_ARG (overlapping buffers, a total weight not finite and > 0, an
 * all-zero stream).
 */
export function engineDispatch(block: usize, src: usize, n: i32, cum: usize, rng: usize, lost: usize): i32 {
  const r = engineDispatchIn(block, src, n, cum, rng, lost);
  leave();
  return r;
}

function engineDispatchIn(block: usize, src: usize, n: i32, cum: usize, rng: usize, lost: usize): i32 {
  return batch(block, src, n, cum, rng, lost, true);
}

/**
 * engineDispatch for a host that runs the gateway once for engines elsewhere
 * (src/laminar/gateway-log.ts): the same draws, in the same order, but every
 * DA that crosses the hop keeps its launchpad in its node field, whatever
 * its Zone (a lost one's reads -1), and none is taken here: the host hands
 * the records to the engines that hold their Zones. Its codes are
 * engineDispatch's, but no E_FULL (nothing is taken).
 */
export function engineDispatchAll(block: usize, src: usize, n: i32, cum: usize, rng: usize, lost: usize): i32 {
  const r = engineDispatchAllIn(block, src, n, cum, rng, lost);
  leave();
  return r;
}

function engineDispatchAllIn(block: usize, src: usize, n: i32, cum: usize, rng: usize, lost: usize): i32 {
  return batch(block, src, n, cum, rng, lost, false);
}

/** engineDispatch (take: the DAs of this engine's Zones take their slots) or engineDispatchAll. */
function batch(block: usize, src: usize, n: i32, cum: usize, rng: usize, lost: usize, take: bool): i32 {
  if (!ready(block)) return E_ARG;
  if (n < 0) return E_COUNT;
  const Z = geti(F_ZONES), stride = <usize>(MX != 0 ? EMIT_MEM_BYTES : EMIT_BYTES);
  regionsReset();
  region(src, <i64>n * <i64>stride, 1, 8, true);
  region(cum, Z, 8, 0, false);
  region(rng, 4, 4, 0, true);
  region(lost, n, 4, 0, true);
  region(block, BLOCK_BYTES, 1, 0, false);
  let e = regionsCheck(); if (e != OK) return e;
  const total = load<f64>(cum + (<usize>(Z - 1) << 3));
  if (!(total > 0) || !isFinite(total)) return E_ARG;
  if (streamIsZero(rng)) return E_ARG;
  e = emitCheck(src, n, false, take);
  if (e != 0) return e;
  if (take) {
    const hist = histNeed();
    if (hist > 0) return room(ROOM_HIST, hist);
  }
  // the Zones first, all of them (TEG samples the batch in one call), kept in the node fields meanwhile
  for (let i = 0; i < n; i++) store<i32>(src + <usize>i * stride + EM_NODE, tegPick(cum, Z, streamFloat(rng) * total));
  const loss = getf(F_LOSS), z0 = take ? geti(F_Z0) : 0, z1 = take ? geti(F_Z1) : Z;
  let nLost = 0;
  for (let i = 0; i < n; i++) {
    const r = src + <usize>i * stride, z = load<i32>(r + EM_NODE), off = offset(z);
    let node = off + <i32>streamInt(rng, <f64>(offset(z + 1) - off));
    if (loss > 0 && streamFloat(rng) < loss) {
      store<i32>(lost + (<usize>nLost << 2), load<i32>(r + EM_TASK));
      nLost++;
      node = -1;
    } else if (z < z0 || z >= z1) node = -1;
    store<i32>(r + EM_NODE, node);
  }
  if (!take) return nLost;
  emitTake(src, n, getf(F_NOW) + getf(F_HOP), false, 0, true);
  if (histOn() && n > 0) histRecord(getf(F_NOW), -Infinity);
  return nLost;
}
