import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<string | void>;
}

/**
 * Runs periodic background tasks one at a time each, never overlapping with
 * itself, and waits for running ones on stop.
 */
export class Scheduler {
  private timers: NodeJS.Timeout[] = [];
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  start(tasks: PeriodicTask[]): void {
    for (const task of tasks) {
      let busy = false;
      const tick = () => {
        if (busy || this.stopped) return;
        busy = true;
        const started = Date.now();
        const work = task
          .run()
          .then((summary) => {
            if (summary) this.log.info({ task: task.name, ms: Date.now() - started }, summary);
          })
          .catch((err: unknown) => this.log.error({ err, task: task.name }, 'background task failed'))
          .finally(() => {
            busy = false;
            this.running.delete(work);
          });
        this.running.add(work);
      };
      const timer = setInterval(tick, task.everyMs);
      timer.unref();
      this.timers.push(timer);
      setImmediate(tick);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.running]);
  }
}
