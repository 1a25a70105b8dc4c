/** One message at a place in the input. An empty path means "the input as a whole". */
export interface FieldError {
  path: readonly PropertyKey[];
  message: string;
  /**
   * The value at `path` had to be an object (a nested serializer in DRF terms). DRF then reports
   * the message under that object's `non_field_errors` instead of as a plain list.
   */
  objectExpected?: boolean;
}

export const NON_FIELD_ERRORS = 'non_field_errors';

interface ErrorNode {
  messages: string[];
  objectExpected: boolean;
  children: Map<string, ErrorNode>;
}

const newNode = (): ErrorNode => ({ messages: [], objectExpected: false, children: new Map() });

/**
 * Renders errors the way Django REST Framework does, so clients written against DRF style APIs
 * parse them unchanged:
 * - fields map to lists of messages: `{"code": ["This field is required."]}`;
 * - nested objects nest: `{"address": {"city": ["..."]}}`;
 * - errors about an object as a whole go under `non_field_errors` (also at the top level);
 * - a list of objects becomes a list with `{}` for the valid items: `[{}, {"name": ["..."]}]`;
 * - a list of plain values reports by index: `{"tags": {"1": ["..."]}}` (DRF's ListField).
 *
 * `input` is what the client sent; it tells lists from objects where the error path alone cannot.
 */
export function renderDrfErrors(errors: readonly FieldError[], input: unknown): unknown {
  const root = newNode();
  for (const error of errors) addError(root, error);
  return renderTopLevel(root, input);
}

function addError(root: ErrorNode, error: FieldError): void {
  let node = root;
  const path = error.path.map(String);
  // A trailing `non_field_errors` segment (from a service's field violation) names the object itself.
  if (path.at(-1) === NON_FIELD_ERRORS) path.pop();
  for (const segment of path) {
    let child = node.children.get(segment);
    if (!child) {
      child = newNode();
      node.children.set(segment, child);
    }
    node = child;
  }
  node.messages.push(error.message);
  if (error.objectExpected) node.objectExpected = true;
}

function renderTopLevel(root: ErrorNode, input: unknown): unknown {
  // A list body's errors are a list, unless something is wrong with the list as a whole.
  if (Array.isArray(input) && root.children.size > 0 && root.messages.length === 0) return renderList(root, input);
  return renderObject(root, input);
}

function renderValue(node: ErrorNode, input: unknown): unknown {
  if (node.children.size === 0) return node.objectExpected ? { [NON_FIELD_ERRORS]: node.messages } : node.messages;
  if (Array.isArray(input)) {
    return listOfObjects(node) ? renderList(node, input) : renderIndexed(node, input);
  }
  return renderObject(node, input);
}

function renderObject(node: ErrorNode, input: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (node.messages.length > 0) body[NON_FIELD_ERRORS] = node.messages;
  for (const [key, child] of node.children) body[key] = renderValue(child, valueAt(input, key));
  return body;
}

/** A list serializer: one entry per item, `{}` where the item was fine. */
function renderList(node: ErrorNode, input: readonly unknown[]): unknown[] {
  const indexes = [...node.children.keys()].map(Number).filter(Number.isInteger);
  const length = Math.max(input.length, ...indexes.map((index) => index + 1));
  return Array.from({ length }, (_, index) => {
    const child = node.children.get(String(index));
    if (!child) return {};
    const rendered = renderValue(child, input[index]);
    return Array.isArray(rendered) && child.children.size === 0 ? { [NON_FIELD_ERRORS]: rendered } : rendered;
  });
}

/** A list of plain values (DRF ListField): errors keyed by the item's index. */
function renderIndexed(node: ErrorNode, input: readonly unknown[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, child] of node.children) body[key] = renderValue(child, input[Number(key)]);
  return body;
}

function listOfObjects(node: ErrorNode): boolean {
  return [...node.children.values()].some((child) => child.children.size > 0 || child.objectExpected);
}

function valueAt(input: unknown, key: string): unknown {
  if (input === null || typeof input !== 'object') return undefined;
  return (input as Record<string, unknown>)[key];
}
