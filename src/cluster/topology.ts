// Zones: how the nodes of a cluster are cut into Zones (paper §Exp1:
// "256-node Zones and 20% intra-Zone size jitter").
//
// Zone count Z = max(1, round(nodes / zoneSize)). Raw sizes are drawn
// uniformly in zoneSize * [1 - jitter, 1 + jitter], then scaled to sum to
// `nodes`: each Zone gets floor(share), and the remainder goes one node each
// to the largest fractional parts (lowest index first on ties). A Zone left
// empty by extreme jitter takes one node from the largest Zone. Zone z holds
// nodes offsets[z] .. offsets[z+1]-1.
import type { Rng } from "../sim/rng.js";

/** Zone offsets (length Z + 1, offsets[0] = 0, offsets[Z] = nodes). Pure given the stream. */
export function zoneOffsets(nodes: number, zoneSize: number, jitter: number, rng: Rng): Int32Array {
  const zones = Math.max(1, Math.min(nodes, Math.round(nodes / zoneSize)));
  const raw = new Float64Array(zones);
  let total = 0;
  for (let z = 0; z < zones; z++) {
    raw[z] = jitter > 0 ? rng.uniform(zoneSize * (1 - jitter), zoneSize * (1 + jitter)) : zoneSize;
    total += raw[z];
  }
  const sizes = new Int32Array(zones);
  const frac = new Float64Array(zones);
  let assigned = 0;
  for (let z = 0; z < zones; z++) {
    const share = (raw[z] * nodes) / total;
    sizes[z] = Math.floor(share);
    frac[z] = share - sizes[z];
    assigned += sizes[z];
  }
  const order = Array.from({ length: zones }, (_, z) => z).sort((a, b) => frac[b] - frac[a] || a - b);
  for (let i = 0; assigned < nodes; i++, assigned++) sizes[order[i % zones]]++;
  for (let z = 0; z < zones; z++) {
    if (sizes[z] > 0) continue;
    let big = 0;
    for (let r = 1; r < zones; r++) if (sizes[r] > sizes[big]) big = r;
    sizes[big]--;
    sizes[z]++;
  }
  const offsets = new Int32Array(zones + 1);
  for (let z = 0; z < zones; z++) offsets[z + 1] = offsets[z] + sizes[z];
  return offsets;
}

/** zoneOf[n] for every node, from the offsets. */
export function zoneIndex(offsets: Int32Array): Int32Array {
  const zones = offsets.length - 1;
  const out = new Int32Array(offsets[zones]);
  for (let z = 0; z < zones; z++) out.fill(z, offsets[z], offsets[z + 1]);
  return out;
}
