import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageImageTree } from './image-tree.js';

/** `node deploy/image/dist/stage.js <dir>`: the Dockerfile's build stage, after the build. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const [outDir] = process.argv.slice(2);
if (!outDir) {
  process.stderr.write('usage: stage.js <output directory>\n');
  process.exit(2);
}
const staged = stageImageTree(ROOT, path.resolve(outDir));
process.stdout.write(`staged ${staged.manifests} and ${staged.built}\n`);
