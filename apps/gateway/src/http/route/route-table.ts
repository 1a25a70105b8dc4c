import type { Request, RequestHandler } from 'express';
import type { PathTemplate } from './route-path.js';

/** What answers one path template: a handler per method, and the 405 for every other method. */
export interface PathEntry {
  template: PathTemplate;
  byMethod: ReadonlyMap<string, RequestHandler>;
  otherMethods: RequestHandler;
}

interface TrieNode {
  literals: Map<string, TrieNode>;
  /** Any one non-empty segment; its value is named by the matched entry's template. */
  param: TrieNode | undefined;
  entry: PathEntry | undefined;
}

/**
 * Finds the entry for a request path in one walk over its segments, where express's router would
 * test every registered layer's regular expression in turn (three per path: methods, 405 and the
 * slash rule; with every path of the API that is over a hundred tests before the last paths match,
 * a measurable share of the gateway's CPU per request, bench/README.md).
 *
 * It answers exactly as those layers did: paths are matched as sent (case-sensitive, still
 * %-encoded), a parameter takes one non-empty segment and is then %-decoded, and where a literal
 * segment and a parameter could both match, the literal wins (DRF's order: extra actions before the
 * detail route), falling back to the parameter when the literal branch leads nowhere.
 */
export class RouteTable {
  private readonly root: TrieNode = newNode();

  add(entry: PathEntry): void {
    let node = this.root;
    for (const segment of entry.template.segments) {
      if (segment.kind === 'literal') {
        let next = node.literals.get(segment.value);
        if (!next) {
          next = newNode();
          node.literals.set(segment.value, next);
        }
        node = next;
      } else {
        // Templates differing only in parameter names are refused earlier (register-routes).
        node.param ??= newNode();
        node = node.param;
      }
    }
    if (node.entry) throw new Error(`Paths ${node.entry.template.template} and ${entry.template.template} collide`);
    node.entry = entry;
  }

  /**
   * The entry whose template matches `path` (the URL's path, without the query) once the trailing
   * slash is set aside, whether the path had it, and the raw (still encoded) parameter values.
   */
  match(path: string): { entry: PathEntry; slash: boolean; rawParams: string[] } | undefined {
    if (path.length < 2 || path.charCodeAt(0) !== SLASH) return undefined;
    const slash = path.charCodeAt(path.length - 1) === SLASH;
    const segments = path.slice(1, slash ? -1 : undefined).split('/');
    const rawParams: string[] = [];
    const entry = find(this.root, segments, 0, rawParams);
    return entry ? { entry, slash, rawParams } : undefined;
  }
}

/** Sets req.params from the raw values; a broken %-escape fails as express's router fails it. */
export function decodeParams(req: Request, entry: PathEntry, rawParams: readonly string[]): void {
  const params: Record<string, string> = {};
  const names = entry.template.paramNames;
  for (let index = 0; index < names.length; index++) {
    const raw = rawParams[index]!;
    try {
      params[names[index]!] = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch (error) {
      // The shape express gives it (toHttpError answers it 404: no object has that name).
      throw Object.assign(new URIError(`Failed to decode param '${raw}'`), { status: 400, cause: error });
    }
  }
  req.params = params;
}

const SLASH = 47;

function newNode(): TrieNode {
  return { literals: new Map(), param: undefined, entry: undefined };
}

function find(node: TrieNode, segments: readonly string[], index: number, rawParams: string[]): PathEntry | undefined {
  if (index === segments.length) return node.entry;
  const segment = segments[index]!;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = find(literal, segments, index + 1, rawParams);
    if (found) return found;
  }
  if (node.param && segment !== '') {
    rawParams.push(segment);
    const found = find(node.param, segments, index + 1, rawParams);
    if (found) return found;
    rawParams.pop();
  }
  return undefined;
}
