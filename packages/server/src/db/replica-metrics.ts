import { Counter, type Registry } from 'prom-client';
import type { ReplicaCounts } from './replica.js';

/** At /metrics: which server served the reads that a replica may serve (decision 0123). */
export function registerReplicaReads(registry: Registry, counts: ReplicaCounts): void {
  new Counter({
    name: 'billow_db_replica_reads_total',
    help: 'Reads that may lag (lists, analytics, Edge cache misses) by the server that served them: replica, or primary (the replica was behind past BILLOW_REPLICA_MAX_WAIT_MS, or down)',
    labelNames: ['served_by'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ served_by: 'replica' }, counts.replica);
      this.inc({ served_by: 'primary' }, counts.primary);
    },
  });
}
