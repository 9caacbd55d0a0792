// Reaching Redis: one quick try before a sweep is put on the queue or a
// worker starts, so a wrong address or a Redis that is not running is one
// line at once. BullMQ's own connections then retry for ever (a worker
// outlives a Redis restart), which would otherwise leave a mistyped address
// waiting in silence.
import { Redis } from "ioredis";
import { QueueError, showUrl, type RedisAddress } from "./queue.js";

export async function probeRedis(url: string, address: RedisAddress, timeoutMs = 5000): Promise<void> {
  const r = new Redis({ ...address, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, enableOfflineQueue: false });
  let cause = "";
  r.on("error", (e: Error) => { cause ||= e.message; }); // the socket's own error (ECONNREFUSED, ...), reported below, once
  try {
    await r.connect();
    await r.ping();
  } catch (e) {
    throw new QueueError(`--queue ${showUrl(url)}: cannot reach Redis (${cause || (e as Error).message || "connection failed"})`);
  } finally {
    r.disconnect();
  }
}
