import { it } from 'vitest';
import { accountPath, createAccount, newOrganization, usePlatform } from './helpers.js';
const platform = usePlatform();
async function trial(pauseMs: number): Promise<boolean> {
  const { api, organizationId } = await newOrganization(platform());
  const a = await createAccount(api, 'o');
  await api.patch(accountPath('o'), { company_name: 'x' });
  await api.patch(accountPath('o'), { company_name: 'y' });
  await api.delete(accountPath('o'));
  if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
  const events = (await platform().accountEvents()).filter((e) => e.organization_id === organizationId && e.aggregate_id === a.uuid);
  return events.map((e) => e.event_type).join(',') === 'account.created,account.updated,account.updated,account.deleted';
}
for (const pause of [0, 300]) {
  it(`pause ${pause}`, async () => {
    let bad = 0;
    for (let i = 0; i < 40; i += 1) if (!(await trial(pause))) bad += 1;
    console.log(`RESULT pause=${pause}ms out-of-order=${bad}/40`);
  }, 120_000);
}
