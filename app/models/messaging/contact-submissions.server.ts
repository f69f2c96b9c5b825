import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

/** What visitors send through the contact form and the waitlist, and the admin inbox that lists it. */
export type ContactSubmissionInput = {
	name: string
	email: string
	phone?: string | null
	message: string
}

/** PostgreSQL text cannot hold NUL: a pasted one would fail the insert, so it is dropped. */
export function cleanText(value: string) {
	return value.replaceAll('\u0000', '').trim()
}

/** Stores a message sent through the contact form; the admin inbox lists it. */
export async function createContactSubmission(db: Kysely<Database>, input: ContactSubmissionInput) {
	return db
		.insertInto('contact_submissions')
		.values({
			kind: 'contact',
			name: cleanText(input.name),
			email: input.email.trim(),
			phone: (input.phone && cleanText(input.phone)) || null,
			message: cleanText(input.message),
		})
		.returning(['id', 'created_at'])
		.executeTakeFirstOrThrow()
}

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
