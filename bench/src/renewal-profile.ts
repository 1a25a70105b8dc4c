import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * A V8 CPU profile of this process over one stretch of work (what `node --cpu-prof` records for
 * the whole process), so that only the measured scheduler phases are profiled, not seeding or the
 * baseline. Same 1 ms sampling interval as --cpu-prof. Returns a function that stops the profiler
 * and writes `<dir>/<name>.cpuprofile` (readable by cpu-profile-summary.js and Chrome DevTools).
 */
export async function startCpuProfile(dir: string, name: string): Promise<() => Promise<string>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
}
