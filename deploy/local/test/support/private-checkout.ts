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

/** What a clone does not have or a test must not share: history, nx's cache, npm start's data. */
const LEFT_OUT = new Set(['.git', '.nx', '.data', 'coverage']);

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
  copyTree(CHECKOUT, dir, true);
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

function copyTree(from: string, to: string, atRoot: boolean): void {
  mkdirSync(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (atRoot && LEFT_OUT.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) copyTree(source, target, false);
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
