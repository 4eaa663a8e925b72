import { describe, expect, it } from 'vitest';
import { EntitlementChangeHub, type NumberedChange } from './change-hub.js';

describe('the change hub', () => {
  it("passes each environment's changes to its listeners only, numbered, resets to all", () => {
    const hub = new EntitlementChangeHub();
    const heard: Record<string, NumberedChange[]> = { a: [], b: [] };
    const stopA = hub.subscribe('a', (change) => heard.a!.push(change));
    hub.subscribe('b', (change) => heard.b!.push(change));
    hub.invalidateCustomer('a', 'cus_1');
    hub.invalidateEnvironment('b');
    hub.clear();
    expect(heard.a!.map((n) => n.change)).toEqual([{ type: 'customer', customerId: 'cus_1' }, { type: 'reset' }]);
    expect(heard.b!.map((n) => n.change)).toEqual([{ type: 'environment' }, { type: 'reset' }]);
    expect(heard.a![1]!.id).toBe(hub.lastId);
    stopA();
    hub.invalidateCustomer('a', 'cus_2');
    expect(heard.a).toHaveLength(2);
    expect(hub.countOf('a')).toBe(0);
    expect(hub.countOf('b')).toBe(1);
  });

  it('tells what an environment missed since an id, until the id is older than the 10,000 it keeps', () => {
    const hub = new EntitlementChangeHub();
    const start = hub.lastId;
    hub.invalidateCustomer('a', 'cus_1');
    hub.invalidateCustomer('b', 'cus_2');
    const middle = hub.lastId;
    hub.clear();
    hub.invalidateCustomer('a', 'cus_3');
    expect(hub.since('a', start)!.map((n) => n.change)).toEqual([
      { type: 'customer', customerId: 'cus_1' },
      { type: 'reset' },
      { type: 'customer', customerId: 'cus_3' },
    ]);
    expect(hub.since('b', middle)!.map((n) => n.change)).toEqual([{ type: 'reset' }]);
    expect(hub.since('a', hub.lastId)).toEqual([]);
    // Another process's id, an id from the future, and nonsense cannot be told.
    expect(hub.since('a', `00000000.1`)).toBeNull();
    expect(hub.since('a', `${hub.lastId.split('.')[0]}.999`)).toBeNull();
    expect(hub.since('a', 'garbage')).toBeNull();

    for (let i = 0; i < 10_000; i++) hub.invalidateCustomer('b', `cus_${i}`);
    expect(hub.since('a', middle)).toBeNull();
    const recent = hub.lastId;
    hub.invalidateCustomer('a', 'cus_last');
    expect(hub.since('a', recent)!.map((n) => n.change)).toEqual([{ type: 'customer', customerId: 'cus_last' }]);
  });
});
