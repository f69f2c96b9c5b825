import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, Role } from '#db/types.ts'

/**
 * A user with a profile, written straight to the database: for tests that need someone to
 * exist, not someone who can log in with a password (the hash is a placeholder).
 */
export async function insertUser(
	db: Kysely<Database>,
	{
		role = 'student',
		email = `${randomUUID()}@example.com`,
		name = `A ${role}`,
		confirmed = true,
	}: { role?: Role; email?: string; name?: string; confirmed?: boolean } = {},
) {
	const user = await db
		.insertInto('users')
		.values({ email, password_hash: 'unused', email_confirmed_at: confirmed ? new Date() : null })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db.insertInto('profiles').values({ id: user.id, name, role }).execute()
	return user.id
}
