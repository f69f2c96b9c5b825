import { type Kysely, sql } from 'kysely'

/**
 * Every profile has its calendar feed token from the start (docs/decisions/031): made on first
 * view of Settings, it was a write on a GET. Two random UUIDs without dashes: 64 hex digits,
 * 244 random bits.
 */
const token = sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`

export async function up(db: Kysely<unknown>) {
	await sql`UPDATE profiles SET calendar_token = ${token} WHERE calendar_token IS NULL`.execute(db)
	await sql`ALTER TABLE profiles ALTER COLUMN calendar_token SET DEFAULT ${token}, ALTER COLUMN calendar_token SET NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE profiles ALTER COLUMN calendar_token DROP DEFAULT, ALTER COLUMN calendar_token DROP NOT NULL`.execute(db)
}
