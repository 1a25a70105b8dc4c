/**
 * The README's shell blocks as the README test reads them: each ```sh block, the commands in it
 * (`curl` and `npm` invocations, in the order they appear) and what the README shows each one
 * answers, in the comment line under it:
 *
 *   # 201 {"uuid": "…", "code": "acme", …}     a curl's HTTP status, then optionally its body
 *   # {"organization": {"id": "…", …}, …}      an npm command's output (JSON)
 *
 * In a shown body, "…" as a value is any value, "…" inside a string any text, and a bare … among
 * an object's members (or a list's items) stands for more of them; without it the members (or
 * items) are exactly those shown. Other comment lines are prose.
 */
export interface ReadmeBlock {
  /** The heading the block is under, to name it. */
  heading: string;
  script: string;
  commands: ReadmeCommand[];
}

export interface ReadmeCommand {
  kind: 'curl' | 'npm';
  /** The line it starts on, for messages. */
  line: string;
  expected?: { status?: number; body?: unknown };
}

/** The marker a bare … becomes while a shown body is parsed. */
export const MORE = '\u2026more';

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  let block: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (block) {
      if (line.startsWith('```')) {
        const script = block.join('\n');
        blocks.push({ heading, script, commands: commandsOf(script) });
        block = undefined;
      } else {
        block.push(line);
      }
    } else if (line === '```sh') {
      block = [];
    } else if (line.startsWith('#')) {
      heading = line.replace(/^#+\s*/, '');
    }
  }
  return blocks;
}

const COMMAND = /(?<![\w-])(curl|npm)(?=\s)/g;
const STATUS_LINE = /^#\s+(\d{3})(?:\s+(.+))?$/;
const OUTPUT_LINE = /^#\s+([[{].*)$/;

function commandsOf(script: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  for (const line of script.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) {
      const status = STATUS_LINE.exec(trimmed);
      const output = status ? undefined : OUTPUT_LINE.exec(trimmed);
      if (!status && !output) continue;
      const command = commands.at(-1);
      if (!command || command.expected) throw new Error(`README: no command for the answer "${trimmed}"`);
      command.expected = status
        ? { status: Number(status[1]), ...(status[2] ? { body: parseShownJson(status[2]) } : {}) }
        : { body: parseShownJson(output![1]!) };
      continue;
    }
    // A trailing comment is prose.
    const code = line.replace(/\s#\s.*$/, '');
    for (const match of code.matchAll(COMMAND)) {
      commands.push({ kind: match[1] as 'curl' | 'npm', line: trimmed });
    }
  }
  return commands;
}

/** JSON as the README shows it: a bare … becomes the MORE marker. */
export function parseShownJson(text: string): unknown {
  let json = '';
  let inString = false;
  const open: string[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      json += char;
      if (char === '\\') json += text[++index] ?? '';
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(char);
    else if (char === '}' || char === ']') open.pop();
    else if (char === '…') {
      json += open.at(-1) === '{' ? `"${MORE}": true` : `"${MORE}"`;
      continue;
    }
    json += char;
  }
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new Error(`README: the answer ${text} is not JSON as shown (${(error as Error).message})`);
  }
}

/** Where `actual` differs from what the README shows, one line each; empty when it matches. */
export function differences(actual: unknown, shown: unknown, at = '$'): string[] {
  if (shown === '…') return actual === undefined ? [`${at}: missing`] : [];
  if (typeof shown === 'string' && shown.includes('…')) {
    const pattern = new RegExp(`^${shown.split('…').map(escapeRegExp).join('.*')}$`, 's');
    return typeof actual === 'string' && pattern.test(actual)
      ? []
      : [`${at}: ${JSON.stringify(actual)} is not ${shown}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: ${JSON.stringify(actual)} is not a list`];
    const items = shown.filter((item) => item !== MORE);
    const more = items.length !== shown.length;
    if (more ? actual.length < items.length : actual.length !== items.length) {
      return [`${at}: ${actual.length} items, the README shows ${more ? 'at least ' : ''}${items.length}`];
    }
    return items.flatMap((item, index) => differences(actual[index], item, `${at}[${index}]`));
  }
  if (shown && typeof shown === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: ${JSON.stringify(actual)} is not an object`];
    }
    const members = Object.entries(shown).filter(([key]) => key !== MORE);
    const found = members.flatMap(([key, value]) =>
      key in actual
        ? differences((actual as Record<string, unknown>)[key], value, `${at}.${key}`)
        : [`${at}.${key}: missing`],
    );
    if (MORE in shown) return found;
    const extra = Object.keys(actual).filter((key) => !(key in shown));
    return extra.length > 0 ? [...found, `${at}: also has ${extra.join(', ')}, which the README does not show`] : found;
  }
  return Object.is(actual, shown) ? [] : [`${at}: ${JSON.stringify(actual)} is not ${JSON.stringify(shown)}`];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
