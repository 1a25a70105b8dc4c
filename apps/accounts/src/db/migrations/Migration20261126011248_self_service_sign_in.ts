import { Migration } from '@mikro-orm/migrations';

export class Migration20261126011248_self_service_sign_in extends Migration {
  override name = 'Migration20261126011248_self_service_sign_in';

  override up(): void {
    this.addSql(
      `create table "self_service_sign_in" ("id" uuid not null, "organization_id" uuid not null, "email" varchar(254) not null, "link_token_hash" varchar(64) not null, "link_expires_at" timestamptz not null, "created_at" timestamptz not null, "signed_in_at" timestamptz null, "session_token_hash" varchar(64) null, "session_expires_at" timestamptz null, "signed_out_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "self_service_sign_in_organization_id_index" on "self_service_sign_in" ("organization_id");`,
    );
    this.addSql(
      `alter table "self_service_sign_in" add constraint "self_service_sign_in_link_token_hash_unique" unique ("link_token_hash");`,
    );
    this.addSql(
      `alter table "self_service_sign_in" add constraint "self_service_sign_in_session_token_hash_unique" unique ("session_token_hash");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "self_service_sign_in" cascade;`);
  }
}
