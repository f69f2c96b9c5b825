import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

const CONTACT_SUBMISSIONS_LIMIT = 200

/** The admin inbox: contact-form and waitlist submissions, newest first. */
export async function listContactSubmissions(db: Kysely<Database>, { limit = CONTACT_SUBMISSIONS_LIMIT } = {}) {
	return db
		.selectFrom('contact_submissions')
		.select(['id', 'kind', 'name', 'email', 'phone', 'message', 'program', 'read', 'created_at'])
		.orderBy('created_at', 'desc')
		.orderBy('id', 'desc')
		.limit(limit)
		.execute()
}

/** Returns false when there is no such submission. */
export async function markContactSubmissionRead(db: Kysely<Database>, id: number) {
	const row = await db.updateTable('contact_submissions').set({ read: true }).where('id', '=', id).returning('id').executeTakeFirst()
	return Boolean(row)
}
