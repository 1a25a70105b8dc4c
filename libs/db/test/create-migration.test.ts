import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity, p } from '@mikro-orm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createMigration } from '../src/index.js';
import { testEntities } from './support/entities.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'billing-migrations-'));
  dirs.push(dir);
  return dir;
}

const PlanV1 = defineEntity({
  name: 'Plan',
  tableName: 'plan',
  properties: { id: p.uuid().primary(), name: p.text() },
});
const PlanV2 = defineEntity({
  name: 'Plan',
  tableName: 'plan',
  properties: { id: p.uuid().primary(), name: p.text(), trialDays: p.integer().default(0) },
});

describe('createMigration', () => {
  it('writes the first migration, the snapshot and the index without touching a database', async () => {
    const dir = tempDir();

    const created = await createMigration({ entities: [PlanV1], migrationsDir: dir, name: 'initial' });

    expect(created.className).toMatch(/^Migration\d{14}_initial$/);
    expect(created.sql).toEqual([
      'create table "plan" ("id" uuid not null, "name" text not null, primary key ("id"));',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['.snapshot-entities.json', `${created.className}.ts`, 'index.ts']);
    const source = readFileSync(join(dir, `${created.className}.ts`), 'utf8');
    expect(source).toContain(`export class ${created.className} extends Migration {`);
    expect(source).toContain(`override name = '${created.className}';`);
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).toContain(`export const migrations = [${created.className}];`);
  });

  it('generates only the change next time, unqualified, and lists migrations oldest first', async () => {
    const dir = tempDir();
    const first = await createMigration({ entities: [PlanV1], migrationsDir: dir, name: 'a_initial' });

    expect(await createMigration({ entities: [PlanV1], migrationsDir: dir })).toEqual({
      className: undefined,
      sql: [],
    });
    const second = await createMigration({ entities: [PlanV2], migrationsDir: dir, name: 'b_trial_days' });

    expect(second.sql).toEqual(['alter table "plan" add "trial_days" int not null default 0;']);
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).toContain(
      `export const migrations = [${first.className}, ${second.className}];`,
    );
  });

  it('finds the committed test migrations up to date with the test entities', async () => {
    const dir = tempDir();
    cpSync(join(import.meta.dirname, 'migrations'), dir, { recursive: true });

    expect(await createMigration({ entities: testEntities, migrationsDir: dir })).toEqual({
      className: undefined,
      sql: [],
    });
  });
});
