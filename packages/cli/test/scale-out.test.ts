/**
 * Scale-out on PostgreSQL's own replication (issue 32, item 7; decision 0123), run in
 * PostgreSQL's pass: a primary and a synchronous streaming replica from Debian's PostgreSQL,
 * two Billow nodes on their own loopback addresses. The run itself is the bench's
 * (`npm run bench -- replicas` prints the same figures); this test holds it to its promises.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replicationAvailable } from '../../bench/src/pg-replication.js';
import { runScaleOut } from '../../bench/src/scale-out.js';
import { DATABASE_KIND, assertBuilt } from './support.js';

beforeAll(assertBuilt);

const available = replicationAvailable();

describe.runIf(DATABASE_KIND === 'postgres')('two Billow nodes on a primary and its replica (in PostgreSQL\'s pass)', () => {
  it('read their own writes, lose nothing when a node or the primary dies, and deliver each webhook once', async () => {
    // CI installs Debian's PostgreSQL and runs as root: a machine without them says why instead of skipping quietly.
    expect(available, available.ok ? '' : available.reason).toEqual({ ok: true });
    const began = Date.now();
    const report = await runScaleOut((line) => console.log(`${((Date.now() - began) / 1000).toFixed(1)} s ${line}`), 150);
    console.log(JSON.stringify(report));

    expect(report.readYourWrites.missing, 'a customer created on B is in A\'s list at once').toBe(0);
    expect(report.replicaReads.replica, 'the replica serves reads once it has caught up').toBeGreaterThan(0);

    expect(report.nodeKill.acknowledged).toBeGreaterThan(0);
    expect(report.nodeKill.lost, 'no acknowledged creation is lost when a node dies').toBe(0);

    expect(report.webhooks.events).toBeGreaterThan(report.readYourWrites.writes);
    expect(report.webhooks.delivered, 'every event reaches the endpoint after the delivering node died').toBe(report.webhooks.events);
    // A delivery left by the dead node is taken over once its lease lock is gone, not after its lease (a minute).
    expect(report.webhooks.resumedAfterMs, 'deliveries resume without waiting out their lease').toBeLessThan(30_000);
    // At least once: only a delivery being sent when its node died may reach its receiver twice (same webhook-id).
    expect(report.webhooks.duplicates, 'repeats only of deliveries in flight at the kill').toBeLessThanOrEqual(report.webhooks.inFlightAtKill);

    expect(report.failover.lost, 'a synchronous replica loses no acknowledged write when promoted').toBe(0);
    expect(report.failover.acknowledged).toBeGreaterThan(0);
    expect(Number.isFinite(report.failover.backAfterMs.a) && Number.isFinite(report.failover.backAfterMs.b), 'both nodes write again after the failover').toBe(true);
    expect(report.failover.listsAfter, 'and read').toBe(true);
  }, 300_000);
});
