/** Every service reads time through a Clock so tests and demos can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move. */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advanceMs(ms: number): void {
    this.current += ms;
  }

  advanceSeconds(seconds: number): void {
    this.advanceMs(seconds * 1000);
  }
}
