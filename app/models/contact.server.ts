import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

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
