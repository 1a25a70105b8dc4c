import type { ServiceClients } from '../../clients/service-clients.js';
import { defineRoute, notFound, type Route } from '../../http/index.js';
import { AdvanceBody, TestClockSchema } from './test-clock-schemas.js';

const TAGS = ['test clock'];

/**
 * How long an advance may spend processing what became due. Far above the usual deadline: moving
 * a month may renew thousands of subscriptions. When it passes, the clock has moved already and
 * the client gets a 503; advancing again to the same time processes the rest.
 */
export const PROCESS_DUE_DEADLINE_MS = 120_000;

/**
 * Test mode (docs/api.md "Test clocks"). The organization's test clock time reaches every service
 * in call metadata (x-organization-time), set by authentication; organizations on the real clock
 * have none, and these endpoints answer 404 for them.
 */
export function testClockRoutes({ identity, subscriptions, invoicing, payments, webhooks }: ServiceClients): Route[] {
  const get = defineRoute({
    method: 'get',
    path: '/api/v1/test-clock/',
    operationId: 'getTestClock',
    summary: "The organization's test clock: its time and time zone (404 outside test mode)",
    tags: TAGS,
    response: { status: 200, schema: TestClockSchema },
    // Exactly what this request carries to every service: answers of test-mode organizations are
    // never cached, so this is the clock's current time.
    handler: ({ context }) => {
      if (!context.organizationTime || !context.organizationTimeZone) throw notFound();
      return { time: new Date(context.organizationTime).toISOString(), time_zone: context.organizationTimeZone };
    },
  });

  const advance = defineRoute({
    method: 'post',
    path: '/api/v1/test-clock/advance/',
    operationId: 'advanceTestClock',
    summary: 'Move the test clock forward; answers once everything that became due is processed',
    description:
      '`to` must not be before the current test clock time; equal re-runs processing. The clock is moved first ' +
      '(one transaction with an audit row), then every service processes what is due up to `to`; the answer ' +
      'comes after that, and after every charge of the organization (also those of calls made before the ' +
      'advance) is on an issued invoice, every card payment attempt due by then (first attempts and dunning ' +
      'retries) has run and its outcome is settled, every payment reminder due by then is recorded (its e-mail ' +
      'follows), every e-invoice delivery due by then has been attempted, and every webhook delivery due by then has been attempted. 404 outside test mode.',
    tags: TAGS,
    body: AdvanceBody,
    response: { status: 200, schema: TestClockSchema },
    handler: async ({ body, context }) => {
      const moved = await identity.call('advanceTestClock', { to: body.to });
      const time = moved.time!;
      // The services must process in the organization's new time, not the time this request
      // was authenticated at.
      const atNewTime = { ...context, organizationTime: time.toISOString() };
      const processed = await subscriptions.call(
        'processDue',
        { until: time },
        { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS },
      );
      // Invoices included: every charge of the organization not yet seen invoiced (those just
      // made, and those of earlier calls still on their way) is invoiced, asynchronously from its
      // event, and every pending grouped invoice issued, before the answer.
      await invoicing.call(
        'awaitCharges',
        { charge_ids: processed.charge_ids, timeout_ms: PROCESS_DUE_DEADLINE_MS - 5_000 },
        { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS },
      );
      // Card invoices among them (and earlier ones) are charged, and every dunning retry that fell
      // due up to the new time is run and settled, before the answer (docs/api.md "Test clocks").
      await payments.call('processDue', { until: time }, { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS });
      // After the payments: an invoice a card or a dunning retry just paid gets no reminder. The
      // reminders' e-mails are sent by invoicing's mail worker after this.
      await invoicing.call(
        'sendDueReminders',
        { until: time },
        { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS },
      );
      // E-invoices of the invoices made (and retries that fell due) are delivered to the access
      // point on the new time before the answer (docs/api.md "E-invoices").
      await invoicing.call('deliverDueEinvoices', {}, { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS });
      // Only now: an advance that fails before this point leaves them to the next one.
      if (processed.charge_ids.length > 0) {
        await subscriptions.call(
          'confirmChargesInvoiced',
          { charge_ids: processed.charge_ids },
          { context: atNewTime },
        );
      }
      // Last, so the deliveries of what the advance made (its invoices' events, handed to accounts
      // before awaitCharges answered) are among them: every webhook delivery due on the new time
      // (new ones and retries) is attempted before the answer.
      await webhooks.call(
        'deliverDueWebhooks',
        { timeout_ms: PROCESS_DUE_DEADLINE_MS - 5_000 },
        { context: atNewTime, deadlineMs: PROCESS_DUE_DEADLINE_MS },
      );
      return { time: time.toISOString(), time_zone: moved.time_zone };
    },
  });

  return [get, advance];
}
