// What the submitting `laminar sweep --queue` and `laminar worker` share: the
// Redis address, the queue's name, a job's data and its return value, and the
// checks on a returned result. A job carries everything its point needs (the
// settings, the profile, the resolved configuration and the build id), so no
// worker depends on a shared disk. The queue's name holds the build id:
// workers of another build of laminar never see the points, and a result
// that still names another build is refused (acceptResult).
import type { Point } from "../experiments/specs.js";
import type { ProfileName } from "../config/profiles.js";

/** A bad --queue address (exit 2). */
export class QueueError extends Error {
  override name = "QueueError";
}

/** ioredis options for a redis:// (or TLS rediss://) URL: host, port, optional user, password and database number. */
export interface RedisAddress {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: object;
  /** BullMQ's workers block on Redis: a command must wait for a reconnect, not fail after some retries. */
  maxRetriesPerRequest: null;
}

export function parseRedisUrl(text: string): RedisAddress {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new QueueError(`--queue "${text}": not a URL (expected redis://host:port, e.g. redis://127.0.0.1:6379)`);
  }
  if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw new QueueError(`--queue "${text}": expected a redis:// or rediss:// URL, got ${u.protocol}//`);
  if (u.hostname === "") throw new QueueError(`--queue "${text}": no host`);
  const port = u.port === "" ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,2}$/.test(path)) throw new QueueError(`--queue "${text}": the path, if any, is a database number (redis://host:port/0)`);
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(path !== "" ? { db: Number(path) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/** The URL as shown to the user: without its password. */
export function showUrl(text: string): string {
  try {
    const u = new URL(text);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return text;
  }
}

/** The queue of one build's points. */
export const queueName = (build: string): string => `laminar-points-${build}`;

/** A job's id: its point's key (a point submitted twice is one job, and a resubmitted sweep finds its jobs). */
export const jobId = (key: string): string => key;

/** What a job carries: everything a worker needs to run the point. */
export interface PointJobData {
  build: string;
  key: string;
  point: Point;
  seed: number;
  /** The point's settings with the seed last, and its profile: what the point worker runs. */
  sets: string[];
  profile: ProfileName;
  /** The profile the result names, as `laminar sim` would (null: none given). */
  recordProfile: string | null;
  /** The resolved configuration (flattened, seed included): a worker checks that the settings give it before running. */
  config: Record<string, unknown>;
}

/** What a job returns. */
export interface PointJobResult {
  build: string;
  key: string;
  result: Record<string, unknown>;
}

/** How many times a point that fails on its own runs before it is reported failed. */
export const ATTEMPTS = 2;

/**
 * A job's return value checked against the point it is for: the result of
 * this build for this key, else the reason it is refused.
 */
export function acceptResult(value: unknown, build: string, key: string): { result: Record<string, unknown> } | { refused: string } {
  const v = value as Partial<PointJobResult> | null;
  if (v === null || typeof v !== "object") return { refused: "the job returned no result" };
  if (v.build !== build) return { refused: `the result comes from another build of laminar (${String(v.build)}; this is ${build}): refused` };
  if (v.key !== key) return { refused: `the result is for another point (${String(v.key)}): refused` };
  if (v.result === null || typeof v.result !== "object" || Array.isArray(v.result)) return { refused: "the job returned no result object" };
  return { result: v.result };
}
