import { describe, expect, it } from 'vitest';
import { moveMoney, type MoneyMovement } from './money-movement.js';

type Intent = { id: string; status: 'processing' | 'settled'; answer?: string };

/** A movement whose steps say what they were asked, in order. */
function movement(over: Partial<MoneyMovement<Intent, string, string>> = {}) {
  const calls: string[] = [];
  const m: MoneyMovement<Intent, string, string> = {
    earlier: async () => undefined,
    pending: (intent) => intent.status === 'processing',
    answerOf: (intent) => intent.answer ?? 'none',
    reserve: async () => ({ intent: { id: 'new', status: 'processing' } }),
    execute: async (intent) => {
      calls.push(`execute ${intent.id}`);
      return 'paid';
    },
    settle: async (intent, outcome) => {
      calls.push(`settle ${intent.id} ${outcome}`);
      return `${intent.id} ${outcome}`;
    },
    ...over,
  };
  return { m, calls };
}

describe('moveMoney', () => {
  it('reserves, executes and settles a new movement, once each', async () => {
    const { m, calls } = movement();
    expect(await moveMoney(m)).toBe('new paid');
    expect(calls).toEqual(['execute new', 'settle new paid']);
  });

  it('answers at once when the plan moves no money: the provider is never asked', async () => {
    const { m, calls } = movement({ reserve: async () => ({ answer: 'free' }) });
    expect(await moveMoney(m)).toBe('free');
    expect(calls).toEqual([]);
  });

  it('carries on the intent a first run left processing, without reserving again', async () => {
    let reserved = false;
    const { m, calls } = movement({
      earlier: async () => ({ id: 'first', status: 'processing' }),
      reserve: async () => {
        reserved = true;
        return { answer: 'again' };
      },
    });
    expect(await moveMoney(m)).toBe('first paid');
    expect(reserved).toBe(false);
    expect(calls).toEqual(['execute first', 'settle first paid']);
  });

  it('answers a settled first run as it ended, moving nothing', async () => {
    const { m, calls } = movement({ earlier: async () => ({ id: 'first', status: 'settled', answer: 'kept' }) });
    expect(await moveMoney(m)).toBe('kept');
    expect(calls).toEqual([]);
  });

  it('leaves the intent to be carried on when the provider fails: nothing is settled', async () => {
    const { m, calls } = movement({
      execute: async () => {
        throw new Error('provider unreachable');
      },
    });
    await expect(moveMoney(m)).rejects.toThrow('provider unreachable');
    expect(calls).toEqual([]);
  });
});
