import { describe, expect, it } from 'vitest';
import type { Commitment } from '../contracts.js';
import { type EngineContext, SubscriptionEngine } from './engine.js';
import type { FixedContract, SubscriptionState, TermsSnapshot } from './state.js';

const TZ = 'Europe/Copenhagen';
const monthly = (price: string, extra: Partial<TermsSnapshot> = {}): TermsSnapshot => ({
  uuid: `terms-${price}`,
  plan: 'plan-1',
  price,
  currency: 'DKK',
  interval: { type: 'month', count: 1 },
  backwards_charging: false,
  ...extra,
});
/** Midnight local time in Copenhagen of a day (winter: UTC+1, summer: UTC+2). */
const cph = (day: string, time = '00:00'): Date => {
  const guess = new Date(`${day}T${time}:00Z`);
  const local = new Intl.DateTimeFormat('sv-SE', { timeZone: TZ, timeZoneName: 'shortOffset' }).format(guess);
  const offset = Number(/GMT([+-]\d+)/.exec(local)?.[1] ?? 0);
  return new Date(guess.getTime() - offset * 3600_000);
};

let ids = 0;
const context = (contract: FixedContract | null = null, commitment: Commitment | null = null): EngineContext => ({
  contractFor: () => contract,
  commitmentOn: () => commitment,
  newId: () => `id-${++ids}`,
});

function newSubscription(
  terms: TermsSnapshot,
  quantity: number,
  start: Date,
  extra: Partial<SubscriptionState> = {},
): SubscriptionState {
  return {
    status: 'scheduled',
    time_zone: TZ,
    pricing: { terms, quantity, override_price: null, contract: null },
    is_auto_renew_enabled: true,
    pre_renewal_days_offset: 0,
    start_date: start,
    base: null,
    period_n: 0,
    charged_through: null,
    last_renewal: null,
    next_renewal: null,
    end_date: null,
    cancellation: null,
    change: null,
    since: null,
    pending_lines: [],
    ...extra,
  };
}

/** [kind, date_from, date_to, amount] of every line of every document, in order. */
const lines = (engine: SubscriptionEngine) =>
  engine.charges.flatMap((charge) => charge.lines.map((l) => [charge.kind, l.kind, l.date_from, l.date_to, l.amount]));

describe('renewals', () => {
  it('monthly forward 100.00 x 2 from 15 Jan: 200.00 for 15 Jan - 14 Feb, then 15 Feb - 14 Mar at the renewal', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 2, cph('2026-01-15', '10:00')), context());
    engine.advance(cph('2026-01-15', '10:00'));
    expect(lines(engine)).toEqual([['renewal', 'renewal', '2026-01-15', '2026-02-14', '200.00']]);
    expect(engine.state.status).toBe('active');
    expect(engine.state.next_renewal).toEqual(cph('2026-02-15', '10:00'));
    engine.advance(cph('2026-02-15', '09:59'));
    expect(engine.charges).toHaveLength(1);
    engine.advance(cph('2026-02-15', '10:00'));
    expect(lines(engine)[1]).toEqual(['renewal', 'renewal', '2026-02-15', '2026-03-14', '200.00']);
    expect(engine.state.last_renewal).toEqual(cph('2026-02-15', '10:00'));
    expect(engine.state.next_renewal).toEqual(cph('2026-03-15', '10:00'));
    expect(engine.events.map((e) => e.change)).toEqual(['activated', 'renewed']);
  });

  it('from 31 Jan renews on 28 Feb, 31 Mar, 30 Apr (29 Feb in a leap year)', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-01-31')), context());
    engine.advance(cph('2026-05-01'));
    expect(engine.charges.map((c) => c.lines[0]!.date_from)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    const leap = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2028-01-31')), context());
    leap.advance(cph('2028-03-01'));
    expect(leap.charges.map((c) => c.lines[0]!.date_from)).toEqual(['2028-01-31', '2028-02-29']);
  });

  it('backwards terms: nothing at the start, the elapsed period at its end', () => {
    const terms = monthly('100.00', { backwards_charging: true });
    const engine = new SubscriptionEngine(newSubscription(terms, 1, cph('2026-01-15')), context());
    engine.advance(cph('2026-02-14', '23:59'));
    expect(engine.charges).toEqual([]);
    engine.advance(cph('2026-02-15'));
    expect(lines(engine)).toEqual([['renewal', 'renewal', '2026-01-15', '2026-02-14', '100.00']]);
    expect(engine.charges[0]!.due_at).toEqual(cph('2026-02-15'));
  });

  it('pre_renewal_days_offset charges the next period that many days early, once', () => {
    const engine = new SubscriptionEngine(
      newSubscription(monthly('100.00'), 1, cph('2026-01-15'), { pre_renewal_days_offset: 5 }),
      context(),
    );
    engine.advance(cph('2026-02-09', '23:00'));
    expect(engine.charges).toHaveLength(1);
    engine.advance(cph('2026-02-10'));
    expect(lines(engine)[1]).toEqual(['renewal', 'renewal', '2026-02-15', '2026-03-14', '100.00']);
    engine.advance(cph('2026-02-15'));
    expect(engine.charges).toHaveLength(2);
    expect(engine.state.next_renewal).toEqual(cph('2026-03-15'));
  });

  it('without auto-renew nothing is charged at the renewal and the status becomes pending_manual_renewal', () => {
    const engine = new SubscriptionEngine(
      newSubscription(monthly('100.00'), 1, cph('2026-01-15'), { is_auto_renew_enabled: false }),
      context(),
    );
    engine.advance(cph('2026-03-01'));
    expect(engine.charges).toHaveLength(1);
    expect(engine.state.status).toBe('pending_manual_renewal');
    engine.renewNow(cph('2026-03-01'));
    expect(lines(engine)[1]).toEqual(['renewal', 'renewal', '2026-03-01', '2026-03-31', '100.00']);
    expect(engine.state.status).toBe('active');
    expect(engine.state.next_renewal).toEqual(cph('2026-04-01'));
  });
});

describe('changes', () => {
  it('quantity 2 → 3 immediately on day 11 of a 28-day period: credit 18 days at 2, charge them at 3', () => {
    const terms = monthly('100.00');
    const engine = new SubscriptionEngine(newSubscription(terms, 2, cph('2026-02-01')), context());
    engine.advance(cph('2026-02-01'));
    engine.changeNow(cph('2026-02-11', '12:00'), terms, 3);
    // 200 × 18/28 = 128.571… → 128.57; 300 × 18/28 = 192.857… → 192.86
    expect(lines(engine).slice(1)).toEqual([
      ['change', 'change_credit', '2026-02-11', '2026-02-28', '-128.57'],
      ['change', 'change_charge', '2026-02-11', '2026-02-28', '192.86'],
    ]);
    expect(engine.state.next_renewal).toEqual(cph('2026-03-01'));
    engine.advance(cph('2026-03-01'));
    expect(lines(engine)[3]).toEqual(['renewal', 'renewal', '2026-03-01', '2026-03-31', '300.00']);
  });

  it('at_renewal change applies at the renewal without proration', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-01-15')), context());
    engine.advance(cph('2026-01-20'));
    engine.scheduleChange(cph('2026-01-20'), monthly('150.00'), 2, 'at_renewal', { renewals: 0 });
    expect(engine.state.change?.at).toEqual(cph('2026-02-15'));
    engine.advance(cph('2026-02-15'));
    expect(lines(engine)).toEqual([
      ['renewal', 'renewal', '2026-01-15', '2026-02-14', '100.00'],
      ['renewal', 'renewal', '2026-02-15', '2026-03-14', '300.00'],
    ]);
    expect(engine.state.change).toBeNull();
    expect(engine.state.pricing.quantity).toBe(2);
  });

  it('another currency is refused on terms', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-01-15')), context());
    engine.advance(cph('2026-01-15'));
    expect(() => engine.changeNow(cph('2026-01-20'), monthly('100.00', { currency: 'EUR' }), 1)).toThrow(
      expect.objectContaining({ field: 'terms' }),
    );
  });
});

describe('cancellations', () => {
  const started = (backwards = false) => {
    const engine = new SubscriptionEngine(
      newSubscription(monthly('100.00', { backwards_charging: backwards }), 2, cph('2026-02-01')),
      context(),
    );
    engine.advance(cph('2026-02-11'));
    return engine;
  };

  it('today, forward: the unused remainder is credited and it ends now', () => {
    const engine = started();
    engine.cancel(cph('2026-02-11', '12:00'), 'today');
    expect(lines(engine)[1]).toEqual(['cancellation', 'cancel_credit', '2026-02-11', '2026-02-28', '-128.57']);
    expect(engine.state.status).toBe('expired');
    expect(engine.state.end_date).toEqual(cph('2026-02-11', '12:00'));
  });

  it('today, backwards: the used part is invoiced now', () => {
    const engine = started(true);
    engine.cancel(cph('2026-02-11', '12:00'), 'today');
    // 200 × 10/28 = 71.428… → 71.43
    expect(lines(engine)).toEqual([['cancellation', 'cancel_elapsed', '2026-02-01', '2026-02-10', '71.43']]);
  });

  it('full_refund: forward credits what was charged for the period; backwards charges nothing', () => {
    const engine = started();
    engine.cancel(cph('2026-02-11'), 'full_refund', { charged: '200.00' });
    expect(lines(engine)[1]).toEqual(['cancellation', 'cancel_credit', '2026-02-01', '2026-02-28', '-200.00']);
    const backwards = started(true);
    backwards.cancel(cph('2026-02-11'), 'full_refund');
    expect(backwards.charges).toEqual([]);
    expect(backwards.state.status).toBe('expired');
  });

  it('at_renewal with cancel_renewal 1: not_renewing until the second renewal, then expired, no credit', () => {
    const engine = started();
    engine.cancel(cph('2026-02-11'), 'at_renewal', { renewals: 1 });
    expect(engine.state.status).toBe('not_renewing');
    expect(engine.state.end_date).toEqual(cph('2026-04-01'));
    expect(() => engine.cancel(cph('2026-02-12'), 'today')).toThrow(
      expect.objectContaining({ reason: 'CANNOT_CANCEL' }),
    );
    engine.advance(cph('2026-04-01'));
    expect(lines(engine).map((l) => l[2])).toEqual(['2026-02-01', '2026-03-01']);
    expect(engine.state.status).toBe('expired');
  });

  it('at_specified_time: at that moment as today', () => {
    const engine = started();
    engine.cancel(cph('2026-02-11'), 'at_specified_time', { date: cph('2026-02-21', '12:00') });
    expect(engine.state.status).toBe('not_renewing');
    engine.advance(cph('2026-02-22'));
    // 200 × 8/28 = 57.142… → 57.14
    expect(lines(engine)[1]).toEqual(['cancellation', 'cancel_credit', '2026-02-21', '2026-02-28', '-57.14']);
    expect(engine.state.status).toBe('expired');
  });

  it('cancel_invalid credits every line ever charged and ends now', () => {
    const engine = started();
    engine.cancel(cph('2026-02-11'), 'cancel_invalid', { allLines: engine.charges.flatMap((c) => c.lines) });
    expect(lines(engine)[1]).toEqual(['cancellation', 'cancel_credit', '2026-02-01', '2026-02-28', '-200.00']);
    expect(engine.charges[1]!.credit_all_invoices).toBe(true);
  });

  describe('a running commitment', () => {
    const feb = { contract: 'c', first_day: '2026-02-01', last_day: '2026-04-30' };
    const refusal = expect.objectContaining({
      reason: 'WITHIN_COMMITMENT',
      message: 'The subscription cannot be cancelled during its contract commitment (2026-02-01 through 2026-04-30).',
    });
    /** Active from 1 Feb; `bound(at)` says whether the commitment binds it at that moment. */
    const boundWhen = (bound: (at: Date) => boolean) => {
      const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-02-01')), {
        ...context(),
        commitmentOn: (_terms, at) => (bound(at) ? feb : null),
      });
      engine.advance(cph('2026-02-01'));
      return engine;
    };

    it.each(['today', 'full_refund', 'at_renewal'] as const)('refuses %s while it runs now', (type) => {
      const engine = boundWhen(() => true);
      expect(() => engine.cancel(cph('2026-02-11'), type)).toThrow(refusal);
      expect(engine.state.status).toBe('active');
      expect(engine.charges).toHaveLength(1);
    });

    it('refuses at_specified_time while it runs now, whatever the date', () => {
      const engine = boundWhen((at) => at < cph('2026-05-01'));
      expect(() => engine.cancel(cph('2026-02-11'), 'at_specified_time', { date: cph('2026-06-01') })).toThrow(refusal);
    });

    it('refuses a cancellation asked for before it that would take effect inside it', () => {
      const engine = boundWhen((at) => at >= cph('2026-03-01'));
      expect(() => engine.cancel(cph('2026-02-11'), 'at_renewal')).toThrow(refusal);
      expect(() => engine.cancel(cph('2026-02-11'), 'at_specified_time', { date: cph('2026-03-02') })).toThrow(refusal);
      engine.cancel(cph('2026-02-11'), 'at_specified_time', { date: cph('2026-02-20') });
      expect(engine.state).toMatchObject({ status: 'not_renewing', end_date: cph('2026-02-20') });
    });

    it('does not bind cancel_invalid', () => {
      const engine = boundWhen(() => true);
      engine.cancel(cph('2026-02-11'), 'cancel_invalid', { allLines: engine.charges.flatMap((c) => c.lines) });
      expect(engine.state.status).toBe('expired');
    });

    it('refuses the replacement by subscribe', () => {
      const engine = boundWhen(() => true);
      expect(() => engine.endForReplacement(cph('2026-02-11'))).toThrow(
        expect.objectContaining({
          reason: 'WITHIN_COMMITMENT',
          message:
            'The account has a subscription within its contract commitment (2026-02-01 through 2026-04-30); it cannot be replaced.',
        }),
      );
    });
  });
});

describe('reactivation', () => {
  it('not_renewing becomes active and renews again; expired starts a new period now', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-02-01')), context());
    engine.advance(cph('2026-02-01'));
    engine.cancel(cph('2026-02-05'), 'at_renewal');
    engine.reactivate(cph('2026-02-06'));
    expect(engine.state.status).toBe('active');
    expect(engine.state.end_date).toBeNull();
    engine.advance(cph('2026-03-01'));
    expect(engine.charges).toHaveLength(2);
    engine.cancel(cph('2026-03-10'), 'today');
    engine.reactivate(cph('2026-03-20'));
    expect(lines(engine).at(-1)).toEqual(['reactivation', 'renewal', '2026-03-20', '2026-04-19', '100.00']);
    expect(() => engine.reactivate(cph('2026-03-21'))).toThrow(
      expect.objectContaining({ reason: 'CANNOT_REACTIVATE' }),
    );
  });
});

describe('tiers', () => {
  const tenPercentFrom5: FixedContract = {
    uuid: 'c',
    exclusive_tiers: true,
    tiers: [{ minimum_quantity: 5, maximum_quantity: null, discount: '10', discount_type: 'percentage' }],
  };
  it('a 10% tier from quantity 5 applies to the terms price and to an override', () => {
    const engine = new SubscriptionEngine(
      newSubscription(monthly('100.00'), 5, cph('2026-02-01')),
      context(tenPercentFrom5),
    );
    engine.advance(cph('2026-02-01'));
    expect(lines(engine)).toEqual([['renewal', 'renewal', '2026-02-01', '2026-02-28', '450.00']]);
    const state = newSubscription(monthly('100.00'), 5, cph('2026-02-01'));
    state.pricing.override_price = '80.00';
    const overridden = new SubscriptionEngine(state, context(tenPercentFrom5));
    overridden.advance(cph('2026-02-01'));
    expect(lines(overridden)).toEqual([['renewal', 'renewal', '2026-02-01', '2026-02-28', '360.00']]);
    const below = new SubscriptionEngine(
      newSubscription(monthly('100.00'), 4, cph('2026-02-01')),
      context(tenPercentFrom5),
    );
    below.advance(cph('2026-02-01'));
    expect(lines(below)[0]![4]).toBe('400.00');
  });
});

describe('renew-now ahead', () => {
  it('an active forward subscription renewed ahead and cancelled today gets the unserved period credited whole', () => {
    const engine = new SubscriptionEngine(newSubscription(monthly('100.00'), 1, cph('2026-02-01')), context());
    engine.advance(cph('2026-02-01'));
    engine.renewNow(cph('2026-02-11'));
    expect(engine.state.next_renewal).toEqual(cph('2026-04-01'));
    expect(lines(engine)[1]).toEqual(['renewal', 'renewal', '2026-03-01', '2026-03-31', '100.00']);
    engine.cancel(cph('2026-02-11', '12:00'), 'today');
    // 100 × 18/28 = 64.285… → 64.29 for February, and March (not begun) whole.
    expect(lines(engine).slice(2)).toEqual([
      ['cancellation', 'cancel_credit', '2026-02-11', '2026-02-28', '-64.29'],
      ['cancellation', 'cancel_credit', '2026-03-01', '2026-03-31', '-100.00'],
    ]);
  });
});
