import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalPlatform } from './local-platform.js';

interface DemoCredentials {
  organizationId: string;
  token: string;
}

/**
 * Seeds the demo organization once. Tokens are stored hashed, so the demo token is kept in the
 * local data folder (never in the repository) to print it again on later starts; if the database
 * no longer knows it (a fresh or different database), a new demo organization is made.
 */
export async function ensureDemoOrganization(platform: LocalPlatform, dataDir: string): Promise<DemoCredentials> {
  const file = join(dataDir, 'demo-organization.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
    if (await tokenWorks(platform.gatewayUrl, saved.token)) return saved;
  }
  const created = await platform.createOrganization({ name: 'Demo Company' });
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  return created;
}

async function tokenWorks(gatewayUrl: string, token: string): Promise<boolean> {
  const response = await fetch(`${gatewayUrl}/api/v1/accounts/?page_size=1`, {
    headers: { Authorization: `Token ${token}`, 'X-Client-System': 'npm-start' },
  });
  return response.status === 200;
}
