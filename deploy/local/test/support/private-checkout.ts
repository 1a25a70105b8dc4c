import {
  chmodSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKOUT } from './npm.js';

export interface PrivateCheckout {
  /** The copy's root, where a user would type `npm start`. */
  dir: string;
  remove(): void;
}

/**
 * What a clone does not have or must not share with this checkout (through hard links, a write
 * there would be a write here): history, caches, npm start's data.
 */
const LEFT_OUT = new Set([
  '.git',
  '.nx',
  '.data',
  'coverage',
  join('node_modules', '.cache'),
  join('node_modules', '.vite'),
]);

/**
 * This checkout as built, dependencies included, copied into a mode-700 folder, as a clone under
 * /root is: only its owner may enter it. Files are hard links (the copy takes no space and a few
 * seconds), so nothing run from the copy may write into an existing file; symbolic links are copied
 * as they are (node_modules/@billing/* point at the copy's own packages).
 */
export function privateCheckout(): PrivateCheckout {
  const parent = mkdtempSync(join(tmpdir(), 'billing-private-'));
  chmodSync(parent, 0o700);
  const dir = join(parent, 'billing');
  copyTree(CHECKOUT, dir, '');
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

function copyTree(from: string, to: string, relativePath: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const inCheckout = join(relativePath, entry.name);
    if (LEFT_OUT.has(inCheckout)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) copyTree(source, target, inCheckout);
    else linkOrCopy(source, target);
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch (error) {
    // Another file system than the checkout's: a real copy.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(source, target);
  }
}
