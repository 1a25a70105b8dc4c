import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENTRY_POINTS, isCommand, USAGE } from './commands.js';

/** deploy/image/dist/ → the root holding apps/ and deploy/ (the checkout, or /app in the image). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!isCommand(command)) {
  process.stderr.write(`${command === undefined ? 'No command given.' : `Unknown command "${command}".`}\n${USAGE}`);
  process.exit(2);
}

const entryPoint = path.join(ROOT, ENTRY_POINTS[command]);
// The entry point runs in this process (signals reach it directly, no second Node); it reads its
// own arguments from process.argv as if started as `node <entry point> ...rest`.
process.argv = [process.argv[0]!, entryPoint, ...rest];
await import(pathToFileURL(entryPoint).href);
