import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { instructionFlags, parseDockerfile, type Stage } from './dockerfile.js';

export interface AssembledImage {
  /** The directory standing for the runtime stage's WORKDIR. */
  workdir: string;
  env: Record<string, string>;
  user: string;
  entrypoint: string[];
  cmd: string[];
  /** The RUN commands of the runtime stage, as run. */
  ran: string[];
}

function stage(stages: Stage[], name: string): Stage {
  const found = stages.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`the Dockerfile has no stage "${name}"`);
  return found;
}

function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) {
    throw new Error(`not an exec-form list: ${args}`);
  }
  return parsed;
}

/** This process's environment without the npm_* variables of the `npm test` that started it. */
function outsideNpm(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

/**
 * Builds the runtime stage's file tree the way the Dockerfile does, from an already built
 * checkout: the build stage's staging step (its `RUN node deploy/image/dist/stage.js <dir>`)
 * into a scratch directory, then the runtime stage instruction by instruction: each COPY
 * --from=build of a staged directory, each RUN in the WORKDIR with the stage's ENV. Anything this
 * cannot follow is an error, so the Dockerfile and this test cannot quietly part ways.
 */
export function assembleRuntimeTree(checkout: string, scratch: string): AssembledImage {
  const stages = parseDockerfile(readFileSync(path.join(checkout, 'Dockerfile'), 'utf8'));
  const build = stage(stages, 'build');
  const staging = build.instructions.find(
    (instruction) => instruction.keyword === 'RUN' && instruction.args.includes('deploy/image/dist/stage.js'),
  );
  const stagingMatch = staging && /^node (deploy\/image\/dist\/stage\.js) (\/\S+)$/.exec(staging.args);
  if (!stagingMatch) throw new Error('the build stage does not stage the image tree with deploy/image/dist/stage.js');
  const stagedInBuild = stagingMatch[2]!;
  const staged = path.join(scratch, 'build-stage');
  execFileSync(process.execPath, [stagingMatch[1]!, staged], { cwd: checkout, stdio: 'pipe' });

  const runtime = stage(stages, 'runtime');
  const image: AssembledImage = { workdir: '', env: {}, user: 'root', entrypoint: [], cmd: [], ran: [] };
  for (const { keyword, args } of runtime.instructions) {
    switch (keyword) {
      case 'WORKDIR':
        image.workdir = path.join(scratch, 'root', args);
        mkdirSync(image.workdir, { recursive: true });
        break;
      case 'ENV':
        for (const pair of args.split(/\s+/)) {
          const [name, value] = pair.split('=');
          if (!name || value === undefined) throw new Error(`ENV needs name=value pairs: ${args}`);
          image.env[name] = value;
        }
        break;
      case 'COPY': {
        const { flags, rest } = instructionFlags(args);
        const [source, destination, ...more] = rest.split(/\s+/);
        if (flags.from !== 'build' || !source || !destination || more.length > 0) {
          throw new Error(`only COPY --from=build <dir> <dest> is followed: COPY ${args}`);
        }
        if (!source.startsWith(`${stagedInBuild}/`))
          throw new Error(`COPY of ${source}, which the build stage did not stage`);
        if (!image.workdir) throw new Error('COPY before WORKDIR');
        cpSync(path.join(staged, source.slice(stagedInBuild.length)), path.resolve(image.workdir, destination), {
          recursive: true,
          verbatimSymlinks: true,
        });
        break;
      }
      case 'RUN': {
        const { flags, rest } = instructionFlags(args);
        // A cache mount holds downloads between builds, never image content: the machine's npm
        // cache plays its part here.
        for (const [flag, value] of Object.entries(flags)) {
          if (flag !== 'mount' || !value.startsWith('type=cache,'))
            throw new Error(`RUN --${flag}=${value} is not followed`);
        }
        execFileSync('bash', ['-c', rest], {
          cwd: image.workdir,
          env: { ...outsideNpm(), ...image.env },
          stdio: 'pipe',
          maxBuffer: 64 * 1024 * 1024,
        });
        image.ran.push(rest);
        break;
      }
      case 'USER':
        image.user = args;
        break;
      case 'ENTRYPOINT':
        image.entrypoint = execForm(args);
        break;
      case 'CMD':
        image.cmd = execForm(args);
        break;
      case 'EXPOSE':
        break;
      default:
        throw new Error(`the image test does not follow ${keyword} (in the runtime stage)`);
    }
  }
  return image;
}
