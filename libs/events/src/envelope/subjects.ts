const PRODUCER = /^[a-z][a-z0-9_]*$/;
const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** Stream retention for publisher retries: a message id seen within this window is stored once. */
export const DUPLICATE_WINDOW_MS = 120_000;

/** `accounts` + `account.created` → `accounts.account.created`. */
export function subjectFor(producer: string, eventType: string): string {
  assertProducer(producer);
  if (!EVENT_TYPE.test(eventType)) {
    throw new Error(`Invalid event type "${eventType}": use dot-separated [a-z0-9_] tokens, e.g. account.created`);
  }
  return `${producer}.${eventType}`;
}

/** One stream per producing service, named after it in upper case: `accounts` → `ACCOUNTS`. */
export function streamNameFor(producer: string): string {
  assertProducer(producer);
  return producer.toUpperCase();
}

/** Every subject a producer publishes on: `accounts.>`. */
export function producerSubjects(producer: string): string {
  assertProducer(producer);
  return `${producer}.>`;
}

/** The producer a subject belongs to: its first token. */
export function producerOf(subject: string): string {
  return subject.split('.', 1)[0] ?? '';
}

function assertProducer(producer: string): void {
  if (!PRODUCER.test(producer)) {
    throw new Error(`Invalid producer "${producer}": use [a-z0-9_], starting with a letter, e.g. accounts`);
  }
}
