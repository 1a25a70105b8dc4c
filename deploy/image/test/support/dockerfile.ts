/** A Dockerfile read as instructions grouped by stage, for the image test to follow. */
export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/**
 * Splits a Dockerfile into its stages (`FROM <base> AS <name>`): comments and blank lines dropped,
 * `\` continuations joined. Instructions before the first FROM (ARG) are not part of any stage.
 */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  for (const line of logical) {
    const match = /^(\w+)\s+(.*)$/.exec(line);
    if (!match) throw new Error(`not an instruction: ${line}`);
    const keyword = match[1]!.toUpperCase();
    const args = match[2]!;
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`FROM without a base: ${line}`);
      stages.push({ base: from[1]!, name: from[2] ?? String(stages.length), instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.instructions.push({ keyword, args });
    }
  }
  return stages;
}

/** `--flag=value` options at the start of COPY or RUN, and the rest. */
export function instructionFlags(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let match = /^--([\w-]+)=(\S+)\s+/.exec(rest); match; match = /^--([\w-]+)=(\S+)\s+/.exec(rest)) {
    flags[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
  return { flags, rest };
}
