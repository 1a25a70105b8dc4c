import { startFakeStripe } from '@billing/testing';

/**
 * The card gateway of bench:charges, run as its own process (bench/src/charges.ts forks it) so
 * that its work is not on the measured process's CPU: the local fake of Stripe's API the cardgw_a
 * adapter speaks (@billing/testing), answering every request after `--latency` ms. Over IPC it
 * reports its URL once, then answers `{ count: 'since' }` with what it charged since the last
 * `{ mark: true }`: charges, and the idempotency keys with how often each was charged.
 */
const latencyMs = Number(process.argv[2] ?? '50');
const stripe = await startFakeStripe({ webhookSecret: 'whsec_bench', latencyMs });
let mark = 0;

process.on('message', (message: { mark?: true; count?: 'since' }) => {
  if (message.mark) {
    mark = stripe.charges.length;
    process.send!({ marked: mark });
    return;
  }
  const charges = stripe.charges.slice(mark);
  const perKey: Record<string, number> = {};
  for (const charge of charges) perKey[charge.idempotencyKey] = (perKey[charge.idempotencyKey] ?? 0) + 1;
  process.send!({
    charges: charges.length,
    succeeded: charges.filter((charge) => charge.status === 'succeeded').length,
    amountMinor: charges.reduce((total, charge) => total + BigInt(charge.amount), 0n).toString(),
    perKey,
  });
});
process.on('disconnect', () => {
  void stripe.stop().finally(() => process.exit(0));
});
process.send!({ url: stripe.url });
