import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { FreshRead, ReplicaGate, gatedPool, parseLsn } from './replica.js';

/** A pool whose every connection answers the position query with `lsn()` (or throws it). */
function fakePool(lsn: () => string | Error, name = 'pool'): pg.Pool & { name: string } {
  const client = {
    name,
    query: async () => {
      const value = lsn();
      if (value instanceof Error) throw value;
      return { rows: [{ lsn: value }] };
    },
    release: () => undefined,
  };
  return { name, connect: async () => client, on: () => undefined } as unknown as pg.Pool & { name: string };
}

const options = { maxWaitMs: 30, pollMs: 1, restMs: 60_000 };

describe('WAL positions', () => {
  it('order as PostgreSQL orders them, across the high half', () => {
    expect(parseLsn('0/16B3748') < parseLsn('0/16B3749')).toBe(true);
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
  });
});

describe('a value read fresh', () => {
  it('shares one query among the callers that arrive while another runs, and starts it after them', async () => {
    let fetches = 0;
    let release: () => void = () => undefined;
    const read = new FreshRead(() => {
      fetches++;
      const n = fetches;
      return new Promise<number>((resolve) => (release = () => resolve(n)));
    });
    const first = read.read();
    const [second, third] = [read.read(), read.read()];
    expect(fetches).toBe(1);
    release();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetches, 'the later callers wait for a query of their own, not the one already running').toBe(2);
    release();
    expect([await second, await third]).toEqual([2, 2]);
  });
});

describe('the replica gate', () => {
  it('lets a read through once the replica has replayed what the primary had flushed', async () => {
    let replayed = 0x50;
    const gate = new ReplicaGate(fakePool(() => '0/100'), fakePool(() => `0/${(replayed += 0x40).toString(16)}`), options);
    expect(await gate.admits()).toBe(true);
    expect(replayed).toBeGreaterThanOrEqual(0x100);
  });

  it('sends the read to the primary when the replica stays behind past the bound', async () => {
    const primary = fakePool(() => '0/100', 'primary');
    const replica = fakePool(() => '0/50', 'replica');
    const gate = new ReplicaGate(primary, replica, options);
    const client = (await gatedPool(gate, primary, replica).connect()) as unknown as { name: string };
    expect(client.name).toBe('primary');
    expect(gate.counts).toEqual({ replica: 0, primary: 1 });
  });

  it('rests the replica after it fails, without asking it again meanwhile', async () => {
    let asked = 0;
    const primary = fakePool(() => '0/100', 'primary');
    const replica = fakePool(() => (asked++, new Error('connection refused')), 'replica');
    const gate = new ReplicaGate(primary, replica, options);
    expect(await gate.admits()).toBe(false);
    expect(await gate.admits()).toBe(false);
    expect(asked).toBe(1);
  });
});

describe('DATABASE_REPLICA_URL', () => {
  it('is read with its bound, and refused without DATABASE_URL or with a bad bound', () => {
    const env = { DATABASE_URL: 'postgres://db/billow', DATABASE_REPLICA_URL: 'postgres://replica/billow' } as NodeJS.ProcessEnv;
    expect(loadConfig(env).replica).toEqual({ url: 'postgres://replica/billow', maxWaitMs: 250 });
    expect(loadConfig({ ...env, BILLOW_REPLICA_MAX_WAIT_MS: '0' }).replica?.maxWaitMs).toBe(0);
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica/billow' } as NodeJS.ProcessEnv)).toThrow(/set DATABASE_URL too/);
    expect(() => loadConfig({ ...env, BILLOW_REPLICA_MAX_WAIT_MS: 'soon' })).toThrow(/BILLOW_REPLICA_MAX_WAIT_MS/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/billow' } as NodeJS.ProcessEnv).replica).toBeNull();
  });
});
