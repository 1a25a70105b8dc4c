import type { PageRequest } from '../../http/index.js';

/**
 * A list's page as the services take it. `defaultOrdering` is sent when the client asked for no
 * ordering and the list's default is the gateway's to name; else the service applies its own.
 */
export const pageOf = (page: PageRequest, defaultOrdering = '') => ({
  page: page.page,
  page_size: page.pageSize,
  ordering: page.ordering.length > 0 ? page.ordering.join(',') : defaultOrdering,
});
