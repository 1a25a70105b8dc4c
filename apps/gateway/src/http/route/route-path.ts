const PARAM_SEGMENT = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

export interface PathTemplate {
  /** As written: `/api/v1/accounts/{code}/`. */
  template: string;
  segments: readonly PathSegment[];
  paramNames: readonly string[];
  /** For express: `/api/v1/accounts/:code/`. */
  expressPath: string;
  /** The same without the trailing slash, where the slash rule answers. */
  expressPathWithoutSlash: string;
}

export type PathSegment = { kind: 'literal'; value: string } | { kind: 'param'; name: string };

/**
 * Checks and compiles a route path. Paths are absolute, end with a slash (every contract URL
 * does) and consist of plain literal segments and `{name}` parameters.
 */
export function parsePathTemplate(template: string): PathTemplate {
  if (!template.startsWith('/') || !template.endsWith('/') || template.length < 2) {
    throw new Error(`Route path must start and end with "/": ${template}`);
  }
  const segments = template
    .slice(1, -1)
    .split('/')
    .map((segment): PathSegment => {
      const param = PARAM_SEGMENT.exec(segment);
      if (param?.[1]) return { kind: 'param', name: param[1] };
      if (LITERAL_SEGMENT.test(segment)) return { kind: 'literal', value: segment };
      throw new Error(`Route path has an invalid segment "${segment}": ${template}`);
    });
  const paramNames = segments.flatMap((segment) => (segment.kind === 'param' ? [segment.name] : []));
  if (new Set(paramNames).size !== paramNames.length) throw new Error(`Route path repeats a parameter: ${template}`);
  const expressPathWithoutSlash = `/${segments
    .map((segment) => (segment.kind === 'param' ? `:${segment.name}` : segment.value))
    .join('/')}`;
  return { template, segments, paramNames, expressPath: `${expressPathWithoutSlash}/`, expressPathWithoutSlash };
}

/**
 * Orders templates so that where two could match one URL, the one with a literal segment at the
 * first difference wins: `/invoices/available-vat-billing-periods/` before `/invoices/{uuid}/`,
 * as DRF's routers list extra actions before the detail route. (Paths of different lengths never
 * match the same URL; ordering them by length only keeps the order total.)
 */
export function compareSpecificity(a: PathTemplate, b: PathTemplate): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let index = 0; index < a.segments.length; index++) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (left?.kind !== right?.kind) return left?.kind === 'literal' ? -1 : 1;
  }
  return 0;
}
