import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'
import { cleanText } from './contact-submissions.server.ts'

export type WaitlistRequestInput = {
	name: string
	email: string
	phone?: string | null
	message?: string | null
	program: string
}

/** 'Waitlist request for: {program}', a newline, then what the visitor wrote (possibly nothing). */
function waitlistMessage(program: string, message?: string | null) {
	return `Waitlist request for: ${program}\n${message ? cleanText(message) : ''}`
}

/**
 * Stores a waitlist request as a contact submission of kind 'waitlist'. A
 * second request for the same e-mail and program replaces the first (one row
 * per person and program, kept by a unique index) and shows as unread again.
 */
export async function joinWaitlist(db: Kysely<Database>, input: WaitlistRequestInput) {
	const program = input.program.trim()
	return db
		.insertInto('contact_submissions')
		.values({
			kind: 'waitlist',
			name: cleanText(input.name),
			email: input.email.trim(),
			phone: (input.phone && cleanText(input.phone)) || null,
			message: waitlistMessage(program, input.message),
			program,
		})
		.onConflict((conflict) =>
			conflict
				.expression(sql`lower(email), program`)
				.where('kind', '=', 'waitlist')
				.doUpdateSet((eb) => ({
					name: eb.ref('excluded.name'),
					email: eb.ref('excluded.email'),
					phone: eb.ref('excluded.phone'),
					message: eb.ref('excluded.message'),
					read: false,
				})),
		)
		.returning(['id'])
		.executeTakeFirstOrThrow()
}
