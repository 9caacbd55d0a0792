// The rows every baseline on the shared network (src/baselines/network.ts)
// adds to `laminar sim`'s table: its messages and, where it has a crash
// rule, whether the control plane crashed.
import type { NetCounters } from "../../baselines/network.js";
import type { Rows } from "../../run/impl.js";

export function netRows(r: NetCounters & { crashed?: boolean }): Rows {
  return [
    ["messages sent / lost / recovered by resend", `${r.messagesSent} / ${r.messagesLost} / ${r.messagesRecovered}`],
    ["heartbeat reports lost", String(r.reportsLost)],
    ...(r.crashed === true ? [["control plane", "crashed (crash rule)"] as [string, string]] : []),
  ];
}
