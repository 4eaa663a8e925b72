export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The clock's instant in epoch milliseconds; the system clock's without making a Date (hot paths read it per request). */
export function nowMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime();
}

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date): void {
    this.current = new Date(at.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** A clock that stands still at `at`: work done at a test clock's time, or at a due instant. */
export const clockAt = (at: Date): Clock => ({ now: () => new Date(at.getTime()) });
