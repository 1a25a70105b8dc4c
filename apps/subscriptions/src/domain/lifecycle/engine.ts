import { money, sum } from '@billing/money';
import { cancellationCharges, immediateChange, renewalCharge } from '../charges.js';
import type { Commitment } from '../contracts.js';
import { nthRenewal, type PeriodBounds, periodBounds, type RenewalBase, shiftLocalDays } from '../periods.js';
import {
  type ChargeDraft,
  type ChargeLineRecord,
  type DocumentKind,
  lineRecord,
  reversedLine,
} from './charge-records.js';
import { cloneData } from './clone.js';
import {
  type CancellationType,
  type ChangeType,
  chargePricing,
  type FixedContract,
  isRunning,
  type PendingChange,
  type SubscriptionPricing,
  type SubscriptionState,
  type SubscriptionStatus,
  type TermsSnapshot,
} from './state.js';

/** What the engine needs to know of the account's contracts (gaps §5), read when it runs. */
export interface AccountContracts {
  /** The account's contract on these terms at that moment, fixed into the subscription. */
  contractFor(terms: TermsSnapshot, at: Date): FixedContract | null;
  /** The commitment binding the account's subscriptions on these terms at that moment, if any. */
  commitmentOn(terms: TermsSnapshot, at: Date): Commitment | null;
}

/** What the engine needs from outside: the account's contracts, fresh ids. */
export interface EngineContext extends AccountContracts {
  newId(): string;
}

/** One thing that happened to a subscription, published as subscription.changed. */
export interface LifecycleEvent {
  change: string;
  effective_at: Date;
  old: { pricing: SubscriptionPricing; status: SubscriptionStatus } | null;
  change_type?: ChangeType;
  cancellation_type?: CancellationType;
}

export interface Outcome {
  state: SubscriptionState;
  charges: ChargeDraft[];
  events: LifecycleEvent[];
}

/** A business rule refused the operation: 400 `{"detail": message}`. */
export class LifecycleRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'LifecycleRefusal';
  }
}

/** The operation is invalid because of one field: 400 `{"<field>": [message]}`. */
export class LifecycleFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'LifecycleFieldError';
  }
}

const same = (a: Date | null, b: Date | null): boolean => a !== null && b !== null && a.getTime() === b.getTime();
const sameInterval = (a: TermsSnapshot, b: TermsSnapshot): boolean =>
  a.interval.type === b.interval.type &&
  a.interval.count === b.interval.count &&
  a.backwards_charging === b.backwards_charging;

interface Step {
  at: Date;
  /** Among steps at the same instant: lower first. */
  order: number;
  run(): void;
}

/**
 * One run of the engine over one subscription: operations change `state` and collect the charges
 * and events they cause. Pure: no I/O, no clock; the caller passes every moment.
 */
export class SubscriptionEngine {
  readonly state: SubscriptionState;
  readonly charges: ChargeDraft[] = [];
  readonly events: LifecycleEvent[] = [];

  constructor(
    state: SubscriptionState,
    private readonly context: EngineContext,
  ) {
    this.state = cloneData(state);
  }

  outcome(): Outcome {
    return { state: this.state, charges: this.charges, events: this.events };
  }

  // ---- time passing ------------------------------------------------------------------------

  /** Performs, in time order, everything due at or before `now`; returns how many steps ran. */
  advance(now: Date, limit = 10_000): number {
    let done = 0;
    while (done < limit) {
      const step = this.nextStep();
      if (!step || step.at.getTime() > now.getTime()) break;
      step.run();
      done += 1;
    }
    return done;
  }

  /** When the next step is due (the scheduler's `due_at`), or null when nothing is waiting. */
  nextDueAt(): Date | null {
    return this.nextStep()?.at ?? null;
  }

  private nextStep(): Step | null {
    const steps = this.steps();
    steps.sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
    return steps[0] ?? null;
  }

  private steps(): Step[] {
    const s = this.state;
    const steps: Step[] = [];
    if (s.status === 'scheduled') {
      steps.push({ at: s.start_date, order: 0, run: () => this.activate(s.start_date) });
      return steps;
    }
    if (!isRunning(s.status) || !s.next_renewal) return steps;
    const renewal = s.next_renewal;
    steps.push({ at: renewal, order: 1, run: () => this.renewAt(renewal, renewal) });
    const cancellation = s.cancellation;
    if (cancellation?.type === 'at_specified_time' && !same(cancellation.at, renewal)) {
      steps.push({ at: cancellation.at, order: 2, run: () => this.endNow(cancellation.at, 'at_specified_time') });
    }
    const change = s.change;
    if (change?.change_type === 'at_specified_time') {
      steps.push({ at: change.at, order: 3, run: () => this.applyScheduledChange(change) });
    }
    const precharge = this.prechargeAt();
    if (precharge) steps.push({ at: precharge, order: 4, run: () => this.chargeUpcoming(precharge) });
    return steps;
  }

  /** Forward terms with pre_renewal_days_offset: the next period is charged that many days early. */
  private prechargeAt(): Date | null {
    const s = this.state;
    if (s.pre_renewal_days_offset <= 0 || s.status !== 'active' || !s.next_renewal) return null;
    if (!s.is_auto_renew_enabled || s.cancellation) return null;
    const upcoming = this.pricingAt(s.next_renewal);
    if (upcoming.terms.backwards_charging) return null;
    if (s.charged_through && s.charged_through.getTime() >= s.next_renewal.getTime()) return null;
    return shiftLocalDays(s.next_renewal, s.pre_renewal_days_offset, s.time_zone);
  }

  // ---- periods -----------------------------------------------------------------------------

  private base(): RenewalBase {
    if (!this.state.base) throw new Error('The subscription has no renewal base.');
    return { instant: this.state.base, timeZone: this.state.time_zone };
  }

  private period(n = this.state.period_n): PeriodBounds {
    return periodBounds(this.base(), this.state.pricing.terms.interval, n);
  }

  /** The pricing in force from `at`: the current one, or the at_renewal change waiting for that moment. */
  private pricingAt(at: Date): SubscriptionPricing {
    const change = this.state.change;
    if (change?.change_type === 'at_renewal' && same(change.at, at)) return this.changedPricing(change, at);
    return this.state.pricing;
  }

  private changedPricing(change: Pick<PendingChange, 'terms' | 'quantity'>, at: Date): SubscriptionPricing {
    return {
      terms: change.terms,
      quantity: change.quantity,
      override_price: this.state.pricing.override_price,
      contract: this.context.contractFor(change.terms, at),
    };
  }

  /** The period that starts at the next renewal, under the pricing in force then. */
  private upcomingPeriod(): { period: PeriodBounds; pricing: SubscriptionPricing } {
    const s = this.state;
    const renewal = s.next_renewal!;
    const pricing = this.pricingAt(renewal);
    if (!sameInterval(pricing.terms, s.pricing.terms)) {
      return { period: periodBounds({ instant: renewal, timeZone: s.time_zone }, pricing.terms.interval, 0), pricing };
    }
    return { period: this.period(s.period_n + 1), pricing };
  }

  private startPeriodAt(at: Date): void {
    const s = this.state;
    s.base = at;
    s.period_n = 0;
    s.last_renewal = at;
    s.next_renewal = nthRenewal(this.base(), s.pricing.terms.interval, 1);
    s.since = null;
    s.pending_lines = [];
  }

  // ---- documents ---------------------------------------------------------------------------

  private record(kind: DocumentKind, key: string, periodStart: Date, dueAt: Date, lines: ChargeLineRecord[]): void {
    if (lines.length === 0) return;
    this.charges.push({
      kind,
      key,
      period_start: periodStart,
      due_at: dueAt,
      currency: lines[0]!.currency,
      lines,
      credit_all_invoices: false,
    });
  }

  /** A whole forward period charged at `at` (its start, or earlier with the offset or renew-now). */
  private chargePeriod(
    kind: DocumentKind,
    period: PeriodBounds,
    pricing: SubscriptionPricing,
    at: Date,
    key = '',
  ): void {
    const line = renewalCharge(chargePricing(pricing), period, this.state.time_zone);
    this.record(kind, key, period.start, at, [lineRecord(line, pricing.terms)]);
    this.state.charged_through = period.start;
  }

  private chargeUpcoming(at: Date): void {
    const { period, pricing } = this.upcomingPeriod();
    this.chargePeriod('renewal', period, pricing, at);
  }

  /** Backwards terms: the period ending now, from the last change (earlier parts waited as pending lines). */
  private chargeElapsedPeriod(at: Date): void {
    const s = this.state;
    const period = this.period();
    const line = renewalCharge(chargePricing(s.pricing), period, s.time_zone, { since: s.since });
    const lines = [...s.pending_lines];
    if (line.days > 0) lines.push(lineRecord(line, s.pricing.terms));
    this.record('renewal', '', period.start, at, lines);
    s.pending_lines = [];
    s.since = null;
  }

  /** Forward: a period charged ahead (offset, renew-now) that will not be served is credited whole. */
  private creditChargedAhead(at: Date, kind: 'cancel_credit' | 'change_credit'): ChargeLineRecord[] {
    const s = this.state;
    if (!s.next_renewal || !s.charged_through || s.charged_through.getTime() < s.next_renewal.getTime()) return [];
    const { period, pricing } = this.upcomingPeriod();
    const line = renewalCharge(chargePricing(pricing), period, s.time_zone);
    s.charged_through = this.period().start;
    void at;
    return [reversedLine(lineRecord(line, pricing.terms), kind)];
  }

  private snapshot(): { pricing: SubscriptionPricing; status: SubscriptionStatus } {
    return cloneData({ pricing: this.state.pricing, status: this.state.status });
  }

  private emit(
    change: string,
    at: Date,
    old: LifecycleEvent['old'],
    extra: Partial<Pick<LifecycleEvent, 'change_type' | 'cancellation_type'>> = {},
  ): void {
    this.events.push({ change, effective_at: at, old, ...extra });
  }

  // ---- steps -------------------------------------------------------------------------------

  /** A scheduled subscription starts: its first period opens and, forward, is charged. */
  activate(at: Date): void {
    const s = this.state;
    const old = this.snapshot();
    s.status = 'active';
    s.pricing.contract = this.context.contractFor(s.pricing.terms, at);
    this.startPeriodAt(at);
    s.charged_through = null;
    if (!s.pricing.terms.backwards_charging) this.chargePeriod('renewal', this.period(), s.pricing, at);
    this.emit('activated', at, old);
  }

  /**
   * The renewal at `renewal`, performed at `at` (equal, or earlier for renew-now): backwards terms
   * charge the period that ends; a cancellation set for this renewal ends the subscription; an
   * at_renewal change takes over; without auto-renew the subscription waits for a manual renewal;
   * otherwise the next period opens and, forward, is charged unless it was already.
   */
  private renewAt(renewal: Date, at: Date): void {
    const s = this.state;
    if (s.pricing.terms.backwards_charging) this.chargeElapsedPeriod(at);
    if (s.cancellation && same(s.cancellation.at, renewal)) {
      const old = this.snapshot();
      const credit = this.creditChargedAhead(at, 'cancel_credit');
      this.record('cancellation', `expire:${renewal.toISOString()}`, renewal, at, credit);
      const type = s.cancellation.type;
      this.expire(renewal);
      this.emit('expired', renewal, old, { cancellation_type: type });
      return;
    }
    const change = s.change;
    if (change?.change_type === 'at_renewal' && same(change.at, renewal)) {
      const old = this.snapshot();
      const restart = !sameInterval(change.terms, s.pricing.terms);
      s.pricing = this.changedPricing(change, renewal);
      s.change = null;
      if (restart) {
        // Another interval: the new terms count their periods from this renewal.
        s.base = renewal;
        s.period_n = -1;
      }
      this.emit('changed', renewal, old, { change_type: 'at_renewal' });
    }
    const old = this.snapshot();
    if (!s.is_auto_renew_enabled) {
      s.status = 'pending_manual_renewal';
      this.emit('pending_manual_renewal', renewal, old);
      return;
    }
    s.period_n += 1;
    s.last_renewal = renewal;
    s.next_renewal = nthRenewal(this.base(), s.pricing.terms.interval, s.period_n + 1);
    s.since = null;
    s.pending_lines = [];
    s.pricing.contract = this.context.contractFor(s.pricing.terms, renewal);
    const period = this.period();
    if (!s.pricing.terms.backwards_charging && !(s.charged_through && s.charged_through >= period.start)) {
      this.chargePeriod('renewal', period, s.pricing, at);
    }
    this.emit('renewed', renewal, old);
  }

  private expire(at: Date): void {
    const s = this.state;
    s.status = 'expired';
    s.end_date = at;
    s.next_renewal = null;
    s.cancellation = null;
    s.change = null;
    s.pending_lines = [];
    s.since = null;
  }

  private applyScheduledChange(change: PendingChange): void {
    this.state.change = null;
    this.changeNow(change.at, change.terms, change.quantity, {
      earlyRenewal: change.early_renewal,
      key: change.uuid,
      changeType: 'at_specified_time',
    });
  }

  // ---- operations --------------------------------------------------------------------------

  /** A new subscription: it waits for its start (advance activates it when the start has come). */
  created(at: Date): void {
    this.emit('created', at, null);
  }

  /** A plain edit (no term or quantity change): recorded so every change has its event. */
  updated(at: Date): void {
    if (this.events.length === 0) this.emit('updated', at, this.snapshot());
  }

  /** The local first day of the current period (what a full refund credits), or null before the start. */
  currentPeriodDateFrom(): string | null {
    return this.state.base ? this.period().dateFrom : null;
  }

  /**
   * POST subscribe replaces the account's other subscriptions: each ends now with its unused
   * remainder credited (as cancel today), whatever its status; a running commitment refuses.
   */
  endForReplacement(now: Date): void {
    const s = this.state;
    if (s.status === 'expired') return;
    const commitment = this.context.commitmentOn(s.pricing.terms, now);
    if (commitment) {
      throw new LifecycleRefusal(
        'WITHIN_COMMITMENT',
        `The account has a subscription within its contract commitment (${during(commitment)}); it cannot be replaced.`,
      );
    }
    this.endNow(now, 'today');
  }

  /**
   * A term or quantity change taking effect at `at` (gaps §6 immediate / at_specified_time).
   * Running subscriptions get one 'change' document (credit and charge lines); scheduled and
   * pending ones just take the new pricing. `prorate: false` with the quantity alone changed:
   * no document, the next renewal bills the new quantity.
   */
  changeNow(
    at: Date,
    terms: TermsSnapshot,
    quantity: number,
    options: { earlyRenewal?: boolean; prorate?: boolean; key?: string; changeType?: ChangeType } = {},
  ): void {
    const s = this.state;
    const old = this.snapshot();
    const changeType = options.changeType ?? 'immediate';
    const key = options.key ?? this.context.newId();
    if (terms.currency !== s.pricing.terms.currency) {
      throw new LifecycleFieldError('terms', 'The currency of a subscription cannot be changed.');
    }
    const to: SubscriptionPricing = {
      terms,
      quantity,
      override_price: s.pricing.override_price,
      contract: this.context.contractFor(terms, at),
    };
    const onlyQuantity = terms.uuid === s.pricing.terms.uuid;
    if (!isRunning(s.status) || (options.prorate === false && onlyQuantity && !options.earlyRenewal)) {
      s.pricing = to;
      this.emit('changed', at, old, { change_type: changeType });
      return;
    }
    const result = immediateChange({
      from: chargePricing(s.pricing),
      to: chargePricing(to),
      base: this.base(),
      at,
      early_renewal: options.earlyRenewal ?? false,
      since: s.since,
    });
    const termsOf = (kind: string) => (kind === 'change_charge' ? to.terms : s.pricing.terms);
    const now: ChargeLineRecord[] = this.creditChargedAhead(at, 'change_credit');
    const later: ChargeLineRecord[] = [];
    for (const line of result.lines) {
      const record = lineRecord(line, termsOf(line.kind));
      (line.due_at.getTime() <= at.getTime() ? now : later).push(record);
    }
    s.pricing = to;
    if (result.newPeriod) {
      this.startPeriodAt(at);
      s.charged_through = to.terms.backwards_charging ? null : at;
      s.pending_lines = later;
    } else {
      s.pending_lines = [...s.pending_lines, ...later];
      if (to.terms.backwards_charging) s.since = at;
      // A period charged ahead at the old pricing was credited above: charge it again at the new one.
      if (
        !to.terms.backwards_charging &&
        s.next_renewal &&
        now.some((l) => l.period_date_from !== result.period.dateFrom)
      ) {
        const { period, pricing } = this.upcomingPeriod();
        const line = renewalCharge(chargePricing(pricing), period, s.time_zone);
        now.push({ ...lineRecord(line, pricing.terms), kind: 'change_charge' });
        s.charged_through = period.start;
      }
    }
    this.record('change', key, result.period.start, at, now);
    this.emit('changed', at, old, { change_type: changeType });
  }

  /** Waits for `at` (at_specified_time) or the `renewals`-th next renewal (at_renewal); replaces any waiting change. */
  scheduleChange(
    now: Date,
    terms: TermsSnapshot,
    quantity: number,
    type: 'at_specified_time' | 'at_renewal',
    options: { at?: Date; renewals?: number; earlyRenewal?: boolean },
  ): void {
    const s = this.state;
    if (terms.currency !== s.pricing.terms.currency) {
      throw new LifecycleFieldError('terms', 'The currency of a subscription cannot be changed.');
    }
    let at: Date;
    if (type === 'at_specified_time') {
      at = options.at!;
      if (at.getTime() <= now.getTime())
        throw new LifecycleFieldError('prorate_date', 'The change must be in the future.');
    } else {
      if (!isRunning(s.status) || !s.base) {
        throw new LifecycleRefusal('NO_RENEWAL', 'Only a running subscription has renewals to change at.');
      }
      at = nthRenewal(this.base(), s.pricing.terms.interval, s.period_n + 1 + (options.renewals ?? 0));
    }
    const old = this.snapshot();
    s.change = {
      uuid: this.context.newId(),
      at,
      change_type: type,
      terms,
      quantity,
      early_renewal: options.earlyRenewal ?? false,
    };
    this.emit('change_scheduled', at, old, { change_type: type });
  }

  /**
   * gaps §6 cancel, at `now`. `charged`: what was invoiced for the current period; `allLines`: every
   * line ever charged. A commitment binding the subscription (gaps §5) refuses it when it runs now
   * or when the cancellation would take effect; cancel_invalid (a subscription made by mistake,
   * never part of the agreement) is not bound.
   */
  cancel(
    now: Date,
    type: CancellationType,
    options: { renewals?: number; date?: Date; charged?: string | null; allLines?: ChargeLineRecord[] } = {},
  ): void {
    const s = this.state;
    if (s.status === 'expired' || s.status === 'not_renewing') {
      throw new LifecycleRefusal('CANNOT_CANCEL', `A subscription with status ${s.status} cannot be cancelled.`);
    }
    if (type !== 'cancel_invalid') this.refuseDuringCommitment(now);
    const old = this.snapshot();
    if (type === 'at_renewal' || type === 'at_specified_time') {
      if (s.status !== 'active') {
        throw new LifecycleRefusal('NO_RENEWAL', `A ${s.status} subscription can only be cancelled now.`);
      }
      let at: Date;
      if (type === 'at_renewal') {
        at = nthRenewal(this.base(), s.pricing.terms.interval, s.period_n + 1 + (options.renewals ?? 0));
      } else {
        at = options.date!;
        if (at.getTime() <= now.getTime())
          throw new LifecycleFieldError('cancel_date', 'The cancellation must be in the future.');
      }
      this.refuseDuringCommitment(at);
      s.status = 'not_renewing';
      s.cancellation = { type, at };
      s.end_date = at;
      this.emit('cancellation_scheduled', at, old, { cancellation_type: type });
      return;
    }
    if (type === 'cancel_invalid') {
      const lines = (options.allLines ?? []).map((line) => reversedLine(line, 'cancel_credit'));
      if (lines.length > 0) {
        this.charges.push({
          kind: 'cancellation',
          key: `cancel:${now.toISOString()}`,
          period_start: s.base ?? s.start_date,
          due_at: now,
          currency: s.pricing.terms.currency,
          lines,
          credit_all_invoices: true,
        });
      }
      this.expire(now);
      this.emit('cancelled', now, old, { cancellation_type: type });
      return;
    }
    this.endNow(now, type, options.charged ?? null, old);
  }

  /** A cancellation taking effect at `at` while a commitment binds the subscription: refused. */
  private refuseDuringCommitment(at: Date): void {
    const commitment = this.context.commitmentOn(this.state.pricing.terms, at);
    if (commitment) {
      throw new LifecycleRefusal(
        'WITHIN_COMMITMENT',
        `The subscription cannot be cancelled during its contract commitment (${during(commitment)}).`,
      );
    }
  }

  /** Ends a subscription at `at` with the lines of a full_refund or today cancellation. */
  private endNow(
    at: Date,
    type: 'full_refund' | 'today' | 'at_specified_time',
    charged: string | null = null,
    old = this.snapshot(),
  ): void {
    const s = this.state;
    if (isRunning(s.status)) {
      const chargeType = type === 'full_refund' ? 'full_refund' : 'today';
      const lines = cancellationCharges(chargePricing(s.pricing), this.base(), at, chargeType, {
        charged,
        since: s.since,
      });
      const records: ChargeLineRecord[] = [];
      if (s.pricing.terms.backwards_charging && chargeType === 'today') records.push(...s.pending_lines);
      records.push(...lines.map((line) => lineRecord(line, s.pricing.terms)));
      records.push(...this.creditChargedAhead(at, 'cancel_credit'));
      const current = this.period();
      if (!s.pricing.terms.backwards_charging && current.start.getTime() > at.getTime()) {
        // Renewed ahead (renew-now): the period not yet begun is credited whole.
        const ahead = renewalCharge(chargePricing(s.pricing), current, s.time_zone);
        records.push(reversedLine(lineRecord(ahead, s.pricing.terms), 'cancel_credit'));
      }
      this.record('cancellation', `cancel:${at.toISOString()}`, this.period().start, at, records);
    }
    this.expire(at);
    this.emit(type === 'at_specified_time' ? 'expired' : 'cancelled', at, old, { cancellation_type: type });
  }

  /** not_renewing: the pending cancellation is dropped. expired: a new period starts now (charged forward). */
  reactivate(now: Date): void {
    const s = this.state;
    const old = this.snapshot();
    if (s.status === 'not_renewing') {
      s.status = 'active';
      s.cancellation = null;
      s.end_date = null;
    } else if (s.status === 'expired') {
      s.status = 'active';
      s.end_date = null;
      s.pricing.contract = this.context.contractFor(s.pricing.terms, now);
      this.startPeriodAt(now);
      s.charged_through = null;
      if (!s.pricing.terms.backwards_charging) this.chargePeriod('reactivation', this.period(), s.pricing, now);
    } else {
      throw new LifecycleRefusal('CANNOT_REACTIVATE', `A subscription with status ${s.status} cannot be reactivated.`);
    }
    this.emit('reactivated', now, old);
  }

  /**
   * pending_manual_renewal: the manual renewal, a new period from now. active forward: the next
   * renewal performed now (its period charged now, next_renewal_date one interval on).
   */
  renewNow(now: Date): void {
    const s = this.state;
    if (s.status === 'pending_manual_renewal') {
      const old = this.snapshot();
      s.status = 'active';
      s.pricing.contract = this.context.contractFor(s.pricing.terms, now);
      this.startPeriodAt(now);
      s.charged_through = null;
      if (!s.pricing.terms.backwards_charging) this.chargePeriod('renewal', this.period(), s.pricing, now);
      this.emit('renewed_manually', now, old);
      return;
    }
    if (s.status === 'active' && !s.pricing.terms.backwards_charging && s.next_renewal) {
      if (!s.is_auto_renew_enabled) {
        throw new LifecycleRefusal(
          'CANNOT_RENEW',
          'Only subscriptions waiting for a manual renewal can be renewed now.',
        );
      }
      this.renewAt(s.next_renewal, now);
      return;
    }
    throw new LifecycleRefusal('CANNOT_RENEW', `A subscription with status ${s.status} cannot be renewed now.`);
  }
}

/** A commitment's days as the refusals name them: "2026-02-01 through 2026-04-30". */
const during = (commitment: Commitment): string => `${commitment.first_day} through ${commitment.last_day}`;

/** What was invoiced for the current period (its forward charge and change lines), for a full refund. */
export function chargedForPeriod(lines: readonly ChargeLineRecord[], periodDateFrom: string): string | null {
  const ofPeriod = lines.filter((line) => line.period_date_from === periodDateFrom);
  if (ofPeriod.length === 0) return null;
  return sum(ofPeriod.map((line) => money(line.amount))).toFixed();
}
