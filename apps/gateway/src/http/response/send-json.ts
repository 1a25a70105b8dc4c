import type { Request, Response } from 'express';
import { browsableOf } from '../request-state.js';
import { writeAnswer } from './answer-recorder.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * What `res.status(status).json(body)` sends (same status, Content-Type, Content-Length and
 * bytes; no body for HEAD), written directly: express's json/send path also re-parses the
 * Content-Type it just set to add the charset, converts the text to a Buffer to measure it and
 * checks request freshness for a 304 that can never apply (ETags are off), per response.
 */
export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const browsable = browsableOf(req);
  if (browsable) {
    // A browser's GET: the same answer, as a page (docs/api.md "The browsable view").
    browsable.view.send(req, res, status, body, browsable.state.routeDefinition, browsable.state.route);
    return;
  }
  const text: string | undefined = JSON.stringify(body);
  res.statusCode = status;
  // As res.json: a Content-Type the handler chose (HttpResponse headers) is kept.
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  if (text === undefined) {
    // express sends `res.json(undefined)` as an empty body; so do we.
    writeAnswer(req, res, null, () => res.end());
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(text));
  writeAnswer(req, res, text, () => {
    if (req.method === 'HEAD') res.end();
    else res.end(text);
  });
}
