import type { ScaleOutReport } from './scale-out.js';

const verdict = (met: boolean) => (met ? '-> met' : '-> MISSED');

/** The scale-out run's figures, each promise of issue 32's item 7 with its verdict. */
export function formatScaleOutReport(r: ScaleOutReport): string {
  const { readYourWrites: ryw, replicaReads: reads, nodeKill, webhooks, failover } = r;
  const delivered = webhooks.delivered === webhooks.events;
  return [
    'Scale-out: PostgreSQL primary + synchronous streaming replica; node A (all roles) on 127.0.0.2, node B (--role api) on 127.0.0.3',
    `  PostgreSQL pair started in ${r.pairStartMs} ms`,
    `  Own writes read across nodes: ${ryw.writes - ryw.missing} of ${ryw.writes} customers created on B in A's list at once (list p50 ${ryw.listP50Ms} ms, p99 ${ryw.listP99Ms} ms) ${verdict(ryw.missing === 0)}`,
    `  Reads that may lag, on node A: ${reads.replica} served by the replica, ${reads.primary} by the primary`,
    `  Node B killed (SIGKILL) under 8 writers: ${nodeKill.acknowledged} creations acknowledged, ${nodeKill.lost} lost ${verdict(nodeKill.lost === 0)}`,
    `  Node A killed while delivering: ${webhooks.delivered} of ${webhooks.events} events delivered ${webhooks.resumedAfterMs} ms after its restart began; ${webhooks.duplicates} repeated of ${webhooks.inFlightAtKill} in flight at the kill ${verdict(delivered && webhooks.duplicates <= webhooks.inFlightAtKill)}`,
    `  Primary crashed under 4 writers: replica promoted and address moved in ${failover.promoteMs} ms; writes answered again after ${failover.backAfterMs.a} ms (A) and ${failover.backAfterMs.b} ms (B); ${failover.acknowledged} acknowledged, ${failover.lost} lost ${verdict(failover.lost === 0 && failover.listsAfter)}`,
    '',
  ].join('\n');
}
