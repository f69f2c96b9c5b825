import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

export type ContactSubmissionInput = {
	name: string
	email: string
	phone?: string | null
	message: string
}

/** Stores a message sent through the contact form; the admin inbox lists it. */
export async function createContactSubmission(db: Kysely<Database>, input: ContactSubmissionInput) {
	return db
		.insertInto('contact_submissions')
		.values({
			kind: 'contact',
			name: input.name.trim(),
			email: input.email.trim(),
			phone: input.phone?.trim() || null,
			message: input.message.trim(),
		})
		.returning(['id', 'created_at'])
		.executeTakeFirstOrThrow()
}
