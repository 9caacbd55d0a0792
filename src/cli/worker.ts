// `laminar worker`: run sweep points from a Redis-backed job queue, on as
// many machines as there are workers (src/sweep/queue-worker.ts). It takes
// only the points of its own build of laminar (the queue's name holds the
// build id), runs them on its threads, and returns their results through the
// queue. Ctrl-C (or SIGTERM) once: no new points, the running ones finish;
// twice: stop now, and the points it held go back to the queue when their
// locks run out (--stall-s).
import { Command } from "commander";
import { availableParallelism } from "node:os";
import { parseIntIn, UsageError } from "./errors.js";
import { queueModule } from "./optional-packages.js";
import { MAX_WORKERS } from "./reproduce.js";
import { QueueError } from "../sweep/queue.js";

interface Options {
  queue: string;
  workers?: string;
  stallS: string;
}

export function workerCommand(): Command {
  return new Command("worker")
    .description("run sweep points from the job queue at a Redis (laminar sweep --queue puts them there), until stopped")
    .requiredOption("--queue <redis-url>", "the Redis of the queue, e.g. redis://10.0.0.5:6379")
    .option("--workers <n>", `points run at once, one thread each, 1 to ${MAX_WORKERS} (default: the cores available, ${availableParallelism()} here)`)
    .option("--stall-s <s>", "seconds a point's lock lasts unrenewed: a point of a worker that died goes back to the queue after one to two times this (every worker on a queue should use the same value)", "30")
    .addHelpText("after", "\nExamples:\n  laminar worker --queue redis://10.0.0.5:6379\n  laminar worker --queue redis://127.0.0.1:6379 --workers 2")
    .action(async (o: Options) => {
      const { parseRedisUrl, queueName, showUrl } = await import("../sweep/queue.js");
      const workers = o.workers === undefined ? availableParallelism() : parseIntIn("--workers", o.workers, 1, MAX_WORKERS);
      const stallS = parseIntIn("--stall-s", o.stallS, 1, 3600);
      let address;
      try {
        address = parseRedisUrl(o.queue);
        await (await queueModule(() => import("../sweep/redis.js"))).probeRedis(o.queue, address);
      } catch (e) {
        throw e instanceof QueueError ? new UsageError(e.message) : e;
      }
      const { buildId } = await import("../experiments/build-id.js");
      const { startWorker } = await queueModule(() => import("../sweep/queue-worker.js"));
      const build = buildId();
      const log = (line: string) => process.stderr.write(`laminar worker: ${line}\n`);
      const stop = await startWorker({ address, build, workers, stallS, log });
      log(`build ${build}: taking points from ${queueName(build)} at ${showUrl(o.queue)}, ${workers} at once (Ctrl-C: finish the running points and stop; twice: stop now)`);
      await new Promise<void>((resolve) => {
        let stopping = false;
        const onSignal = () => {
          if (stopping) {
            log("stopped now; its running points go back to the queue when their locks run out");
            process.exit(130);
          }
          stopping = true;
          log("stopping once the running points end");
          stop(false).then(resolve, (e: unknown) => { log(`stop: ${(e as Error).message}`); resolve(); });
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
      });
    });
}
