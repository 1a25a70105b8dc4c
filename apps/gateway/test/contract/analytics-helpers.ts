/**
 * Vocabulary of the analytics contract tests (api-spec "Activities", the MRR reports, gaps.md §8):
 * paths, and readers that wait until the analytics service has handled every event so far.
 */
import type { ApiClient, TestPlatform } from '../support/platform.js';
import { expectStatus, type Json } from './helpers.js';

export const ACTIVITIES = '/api/v1/activities/';
export const ACCOUNT_ACTIVITIES = '/api/v1/activities/account/';
export const activityPath = (uuid: string) => `${ACTIVITIES}${uuid}/`;
export const accountActivityPath = (uuid: string) => `${ACCOUNT_ACTIVITIES}${uuid}/`;
export const TOTAL_MRR = '/api/v1/subscriptions/total-mrr/';

/** GET `path` once analytics has caught up with every event committed so far. */
export async function readAnalytics(platform: TestPlatform, api: ApiClient, path: string) {
  await platform.analyticsCaughtUp();
  const response = await api.get(path);
  expectStatus(response, 200);
  return response.body;
}

/** Every activity (oldest first), as a person checks it: type, date, MRR fields. */
export async function activitySummary(platform: TestPlatform, api: ApiClient, query = '') {
  const body = await readAnalytics(platform, api, `${ACTIVITIES}?ordering=date&page_size=100${query}`);
  return (body.results as Json[]).map((a) => [
    a.type,
    a.date,
    a.old_mrr,
    a.new_mrr,
    a.mrr_change,
    a.quantity_change,
    a.is_churn,
  ]);
}

export async function accountActivitySummary(platform: TestPlatform, api: ApiClient, query = '') {
  const body = await readAnalytics(platform, api, `${ACCOUNT_ACTIVITIES}?ordering=date&page_size=100${query}`);
  return (body.results as Json[]).map((a) => [a.type, a.date, a.old_mrr, a.new_mrr, a.mrr_change, a.churn_reason]);
}

export async function totalMrr(platform: TestPlatform, api: ApiClient, query = '') {
  const body = await readAnalytics(platform, api, `${TOTAL_MRR}${query}`);
  return [body.total_mrr, body.future_mrr, body.pending_manual_renewal_mrr, body.subscriptions_count];
}
