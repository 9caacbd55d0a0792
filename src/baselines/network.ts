// The network every baseline's control messages cross: the same ground rules
// as Laminar's (paper §Baseline modeling: "all three baselines share the same
// network ground rules as Laminar"): a hop delay and loss (network.loss) on
// every message, and, as on a Laminar DA's hop to its chosen node, an
// exponential OS jitter (network.osJitterMs) on the message that carries a
// task to the node chosen for it (toNode). Draws come from the scheduler's
// own stream "net:<scheduler>", so switching the network on or off never
// moves the model's own draws.
//
// Recovery is what the real systems' transport does: Slurm's RPCs, Ray's gRPC
// and Flux's ZeroMQ all run over TCP, which resends a lost segment after its
// retransmission timeout (baselines.lossRecoveryMs); a resend may be lost
// again. A lost heartbeat report is not resent: that view stays as it was
// until the next heartbeat (reportLost).
import type { Config } from "../config/params.js";
import { streamRng, type Rng } from "../sim/rng.js";
import { NS_PER_MS } from "../sim/time.js";

/** Counters of a baseline's control messages, as the result JSON reports them. */
export interface NetCounters {
  /** Control messages sent (a resend is not a new message). */
  messagesSent: number;
  /** Transmissions lost (a message lost twice counts twice). */
  messagesLost: number;
  /** Messages delivered after at least one loss, by resending. */
  messagesRecovered: number;
  /** Heartbeat reports lost (the view they would have refreshed stays stale). */
  reportsLost: number;
}

export class BaselineNet {
  readonly hopNs: number;
  readonly recoveryNs: number;
  private readonly loss: number;
  private readonly jitterMs: number;
  private readonly rng: Rng;
  readonly counters: NetCounters = { messagesSent: 0, messagesLost: 0, messagesRecovered: 0, reportsLost: 0 };

  /** `stream`: the scheduler's name, or a sub-stream of it ("slurm:submit"); two nets of one stream draw the same sequence. */
  constructor(c: Config, stream: string) {
    this.hopNs = Math.round(baselineHopMs(c) * NS_PER_MS);
    this.recoveryNs = Math.round(c.baselines.lossRecoveryMs * NS_PER_MS);
    this.loss = c.network.loss;
    this.jitterMs = c.network.osJitterMs;
    this.rng = streamRng(c.sim.seed, `net:${stream}`);
  }

  /** Send one message: the transmissions of it that are lost before one gets through (0 with no loss). */
  losses(): number {
    this.counters.messagesSent++;
    if (this.loss === 0) return 0;
    let k = 0;
    while (this.rng.float() < this.loss) k++;
    if (k > 0) {
      this.counters.messagesLost += k;
      this.counters.messagesRecovered++;
    }
    return k;
  }

  /** Delay of one control message from send to delivery: the hop, and one recovery timeout per lost transmission. */
  delay(): number {
    const k = this.losses();
    return k === 0 ? this.hopNs : this.hopNs + k * this.recoveryNs;
  }

  /** Delay of the message that carries a task to the node chosen for it: delay() plus the OS jitter. */
  toNode(): number {
    const d = this.delay();
    return this.jitterMs > 0 ? d + Math.round(this.rng.exp(this.jitterMs) * NS_PER_MS) : d;
  }

  /** Delay of a message that crosses `levels` hops in a row (a rollback climbing a tree), without any wait between them. */
  delays(levels: number): number {
    let d = 0;
    for (let i = 0; i < levels; i++) d += this.delay();
    return d;
  }

  /** True when one heartbeat report is lost (nothing is resent: the next heartbeat brings the news). */
  reportLost(): boolean {
    if (this.loss === 0 || this.rng.float() >= this.loss) return false;
    this.counters.reportsLost++;
    return true;
  }

  /** Whether heartbeat reports can be lost at all (lets a model keep its whole-view copy when not). */
  get lossy(): boolean {
    return this.loss > 0;
  }
}

/** The baselines' hop: baselines.hopMs, or network.hopMs when that is 0. */
export function baselineHopMs(c: Config): number {
  return c.baselines.hopMs > 0 ? c.baselines.hopMs : c.network.hopMs;
}
