import pg from 'pg';
import { quoteIdentifier } from './database.js';
import { apiHeaders } from './seed-accounts.js';

/** What each realistic account holds (issue 14: "5 subscriptions, 3 draft lines, 2 recipients, a card"). */
export const ACCOUNT_SHAPE = { recipients: 2, subscriptions: 5, draftLines: 3, cards: 1 } as const;

// Parallel enough to seed 1000 accounts' sets in a minute or two, low enough not to trip pool timeouts.
const SEED_CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;
// The read model is fed after each write's commit (hand-over, then JetStream); seeding 1000
// accounts leaves at most a few seconds of events behind, far less on a quiet machine.
const READ_MODEL_TIMEOUT_MS = 180_000;
const READ_MODEL_POLL_MS = 500;

/**
 * Backwards-charging terms: a new subscription is charged at the end of its first period, not when
 * it is created, so seeding thousands of active subscriptions leaves no invoices to issue behind
 * (invoicing's work would otherwise run into the measured phases).
 */
const TERMS = [
  { code: 'monthly', interval_type: 'month', interval_count: 1, price: '100.00' },
  { code: 'yearly', interval_type: 'year', interval_count: 1, price: '1000.00' },
] as const;

/** Draft lines as a customer's extras look: a fee, a discounted workshop, a dated service. */
const DRAFT_LINES = [
  { description: 'Setup fee', vat_type: 'services', currency: 'DKK', price: '500.00', quantity: '1' },
  {
    description: 'Onboarding workshop',
    vat_type: 'services',
    currency: 'DKK',
    price: '1250.50',
    quantity: '2.5',
    discount_percentage: '10',
    reference_person: 'Ada',
  },
  {
    description: 'Extra storage',
    vat_type: 'services',
    currency: 'DKK',
    price: '49.95',
    quantity: '3',
    date_from: '2026-11-01',
    date_to: '2026-11-30',
    custom_fields: { project: 'bench' },
  },
] as const;

/**
 * Gives every account the realistic sets an account read returns, through the public REST API
 * only (the platform writes every row itself and tells its read models as it does in production):
 * a plan with two backwards-charging plan terms, then per account 2 recipients, a noop payment
 * card (POST /api/v1/paymentcards/ with the noop gateway's token), 5 active subscriptions to those
 * terms and 3 draft invoice lines.
 */
export async function seedAccountSetsViaApi(
  gatewayUrl: string,
  token: string,
  accounts: ReadonlyMap<string, string>,
): Promise<void> {
  const post = async (path: string, body: unknown): Promise<{ uuid: string }> => {
    const response = await fetch(new URL(path, gatewayUrl), {
      method: 'POST',
      headers: { ...apiHeaders(token), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`seeding: POST ${path} answered ${response.status} ${text}`);
    return JSON.parse(text) as { uuid: string };
  };

  const stamp = Date.now().toString(36);
  const plan = await post('/api/v1/plans/', {
    name: 'Bench Pro',
    code: `bench-${stamp}`,
    collect_vat: true,
    vat_type: 'services',
  });
  const terms: string[] = [];
  for (const term of TERMS) {
    const made = await post('/api/v1/planterms/', {
      plan: plan.uuid,
      code: `bench-${stamp}-${term.code}`,
      interval_type: term.interval_type,
      interval_count: term.interval_count,
      price: term.price,
      currency: 'DKK',
      backwards_charging: true,
    });
    terms.push(made.uuid);
  }

  const entries = [...accounts];
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [code, uuid] = entries[next++]!;
      for (const [index, name] of ['Jane Doe', 'John Smith'].entries()) {
        await post('/api/v1/recipients/', {
          account: uuid,
          name,
          email: `${name.split(' ')[0]!.toLowerCase()}.${code}@example.com`,
          receive_invoice: true,
          receive_payment_confirmation: index === 0,
          receive_subscription_notifications: index === 1,
        });
      }
      await post('/api/v1/paymentcards/', { account: uuid, token: 'noop_visa', gateway: 'noop' });
      for (let index = 0; index < ACCOUNT_SHAPE.subscriptions; index++) {
        await post('/api/v1/subscriptions/', {
          account: code,
          terms: terms[index % terms.length],
          quantity: index + 1,
          collection_method: index === ACCOUNT_SHAPE.subscriptions - 1 ? 'payment_card' : 'invoice',
        });
      }
      for (const line of DRAFT_LINES) await post('/api/v1/draftinvoicelines/', { account: code, ...line });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, entries.length) }, worker));
}

/**
 * Waits until the accounts service's read model holds every seeded subscription, draft line and
 * card (fed by their services' events after each commit), so that every GET of the run returns
 * the whole account. Reads only counts: nothing is written behind the platform's back.
 */
export async function waitForReadModel(
  databaseUrl: string,
  accountsSchema: string,
  organizationId: string,
  accountCount: number,
): Promise<void> {
  const q = quoteIdentifier(accountsSchema);
  const expected = {
    subscriptions: accountCount * ACCOUNT_SHAPE.subscriptions,
    draftLines: accountCount * ACCOUNT_SHAPE.draftLines,
    cards: accountCount * ACCOUNT_SHAPE.cards,
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + READ_MODEL_TIMEOUT_MS;
    for (;;) {
      const { rows } = await client.query<{ subscriptions: number; draft_lines: number; cards: number }>(
        `select (select count(*)::int from ${q}.account_subscription
                  where organization_id = $1 and snapshot is not null) as subscriptions,
                (select count(*)::int from ${q}.account_draft_line
                  where organization_id = $1 and not removed) as draft_lines,
                (select count(*)::int from ${q}.account_payment_card where organization_id = $1) as cards`,
        [organizationId],
      );
      const found = rows[0]!;
      if (
        found.subscriptions === expected.subscriptions &&
        found.draft_lines === expected.draftLines &&
        found.cards === expected.cards
      ) {
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the accounts read model holds ${found.subscriptions} subscriptions, ${found.draft_lines} draft lines ` +
            `and ${found.cards} cards, not ${expected.subscriptions}, ${expected.draftLines} and ${expected.cards}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, READ_MODEL_POLL_MS));
    }
  } finally {
    await client.end();
  }
}
