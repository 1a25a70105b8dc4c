import type { RequestHandler } from 'express';
import { urlMustEndWithSlash } from '../errors/http-error.js';
import { sendError } from '../errors/send-error.js';
import type { HttpLogger } from '../http-logger.js';

/**
 * Answers a known path written without its trailing slash (spec/gaps.md §2): GET and HEAD are
 * sent to the slashed URL with the query kept (301, as Django's APPEND_SLASH); writes are 404
 * naming the right URL, because a redirected POST would lose its body. Unknown paths never get
 * here, so nobody is redirected to a URL that would 404 anyway.
 */
export function trailingSlashHandler(logger: HttpLogger): RequestHandler {
  return (req, res) => {
    const queryStart = req.originalUrl.indexOf('?');
    const path = queryStart === -1 ? req.originalUrl : req.originalUrl.slice(0, queryStart);
    const query = queryStart === -1 ? '' : req.originalUrl.slice(queryStart);
    if (req.method === 'GET' || req.method === 'HEAD') {
      // The raw path and query as received, so nothing is decoded or re-encoded on the way.
      res.status(301).setHeader('Location', `${path}/${query}`);
      res.end();
      return;
    }
    sendError(req, res, urlMustEndWithSlash(path), logger);
  };
}
