import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215955_payment_cards_and_gateway_credentials extends Migration {
  override name = 'Migration20261125215955_payment_cards_and_gateway_credentials';

  override up(): void {
    this.addSql(
      `create table "account_payment_card" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "active" boolean not null, "version" int not null, "created_date" timestamptz not null, "snapshot" bytea not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_payment_card_organization_account_idx" on "account_payment_card" ("organization_id", "account_id");`,
    );

    this.addSql(
      `create table "gateway_credential" ("id" uuid not null, "organization_id" uuid not null, "gateway" varchar(32) not null, "sealed" text not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "gateway_credential" add constraint "gateway_credential_organization_gateway_uniq" unique ("organization_id", "gateway");`,
    );

    this.addSql(`alter table "organization" add "dunning_schedule_days" jsonb not null default '[1,3,7]';`);
  }

  override down(): void {
    this.addSql(`drop table if exists "account_payment_card" cascade;`);
    this.addSql(`drop table if exists "gateway_credential" cascade;`);

    this.addSql(`alter table "organization" drop column "dunning_schedule_days";`);
  }
}
