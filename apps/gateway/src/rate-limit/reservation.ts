/**
 * How many requests a gateway replica counts in the shared store at once. Small limits (the
 * contract's 60 a minute, anything under 2,000) are counted one request at a time, so they are
 * exact. Large limits reserve a block (limit / 1,000, at most 100) and spend it locally: the store
 * is then visited once per block instead of once per request, the limit still holds across all
 * replicas (a reservation is counted before it is spent), and at most a block per replica goes
 * unused when the window ends (under 0.1% of the limit, or 100 requests).
 */
export function reservationSize(limit: number): number {
  return Math.min(100, Math.max(1, Math.floor(limit / 1_000)));
}

/** A replica's reserved block of one API user's window. */
export interface Reservation {
  windowStart: number;
  /** The window's global count before this block. */
  base: number;
  /** Requests of the block that are within the limit. */
  granted: number;
  used: number;
}

/** The block a store answer gives: `counted` is the global count including the `size` just added. */
export function reserve(windowStart: number, counted: number, size: number, limit: number): Reservation {
  const base = counted - size;
  return { windowStart, base, granted: Math.min(size, Math.max(0, limit - base)), used: 0 };
}

/**
 * True once a block showed the window's limit reached: counts only grow within a window, so the
 * replica can refuse the rest of the window without asking the store again.
 */
export function limitReached(reservation: Reservation | undefined, windowStart: number, limit: number): boolean {
  return (
    reservation !== undefined &&
    reservation.windowStart === windowStart &&
    reservation.used >= reservation.granted &&
    reservation.base + reservation.granted >= limit
  );
}

/**
 * Spends one request of the block; returns the request's position in the window's global count, or
 * null when the block is used up (or belongs to another window) and a new one must be reserved.
 */
export function spend(reservation: Reservation | undefined, windowStart: number): number | null {
  if (!reservation || reservation.windowStart !== windowStart || reservation.used >= reservation.granted) return null;
  reservation.used += 1;
  return reservation.base + reservation.used;
}
