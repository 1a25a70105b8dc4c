// Integration tests use a real PostgreSQL and a real NATS JetStream. Say so plainly, before any
// test starts, instead of letting a suite hang on a connection that will never come.
import { connect } from 'node:net';

const services = [
  {
    name: 'PostgreSQL',
    url: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/billing_test',
    port: 5432,
  },
  { name: 'NATS JetStream', url: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', port: 4222 },
];

function reachable({ url, port }) {
  const { hostname, port: given } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(given || port), timeout: 2000 });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

const down = [];
for (const service of services) if (!(await reachable(service))) down.push(service);
if (down.length > 0) {
  for (const service of down) console.error(`${service.name} is not reachable at ${service.url}`);
  console.error(
    'The tests need both (see README, "Running the tests"): set TEST_DATABASE_URL / TEST_NATS_URL, or run .ci/run, which starts them.',
  );
  process.exit(1);
}
