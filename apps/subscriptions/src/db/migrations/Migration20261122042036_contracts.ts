import { Migration } from '@mikro-orm/migrations';

export class Migration20261122042036_contracts extends Migration {
  override name = 'Migration20261122042036_contracts';

  override up(): void {
    this.addSql(
      `create table "contract" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "plan_terms_id" uuid not null, "start_date" varchar(10) not null, "end_date" varchar(10) null, "commitment_length" int not null, "exclusive_tiers" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "contract_organization_account_idx" on "contract" ("organization_id", "account_id", "created_at");`,
    );

    this.addSql(
      `create table "contract_tier" ("id" uuid not null, "organization_id" uuid not null, "contract_id" uuid not null, "minimum_quantity" int not null, "maximum_quantity" int null, "discount" numeric(20,6) not null, "discount_type" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "contract_tier_organization_contract_idx" on "contract_tier" ("organization_id", "contract_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "contract" cascade;`);
    this.addSql(`drop table if exists "contract_tier" cascade;`);
  }
}
