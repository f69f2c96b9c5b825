import { runOnce } from 'graphile-worker'
import type { Kysely } from 'kysely'
import { TASKS } from '#app/jobs/index.server.ts'
import { SEND_SEAT_OFFER_TASK } from '#app/models/enrollment/seat-offers.server.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { claimSeat } from '#app/models/payments/payments.server.ts'
import type { Database } from '#db/types.ts'

/** Runs the pending offer-mail jobs with graphile-worker itself, as a runner of the app would. */
export async function deliverSeatOffers(databaseUrl: string) {
	await runOnce({
		connectionString: databaseUrl,
		concurrency: 1,
		noHandleSignals: true,
		taskList: { [SEND_SEAT_OFFER_TASK]: TASKS[SEND_SEAT_OFFER_TASK]! },
	})
}

/** The token of the newest waitlist link (place or offer) e-mailed to an address, read from the outbox. */
export async function latestWaitlistToken(db: Kysely<Database>, email: string) {
	const mail = await db
		.selectFrom('email_outbox')
		.select('text_body')
		.where('to_address', '=', email)
		.where('text_body', 'like', '%/waitlist/places/%')
		.orderBy('id', 'desc')
		.executeTakeFirstOrThrow()
	const match = mail.text_body.match(/\/waitlist\/places\/([\w-]+)/)
	if (!match) throw new Error(`no waitlist link in the mail to ${email}`)
	return match[1]!
}

/** The mails in the outbox about one course (its title in the subject), oldest first, as 'address: subject'. */
export async function outboxLines(db: Kysely<Database>, courseTitle: string) {
	const rows = await db
		.selectFrom('email_outbox')
		.select(['to_address', 'subject'])
		.where('subject', 'like', `%: ${courseTitle}`)
		.orderBy('id')
		.execute()
	return rows.map((row) => `${row.to_address}: ${row.subject}`)
}

/** What a claim of a seat by the user comes to: 'enrolled' or 'held', or the reason it was refused. */
export function claimOutcome(db: Kysely<Database>, userId: string, courseId: number) {
	return db
		.transaction()
		.execute((trx) => claimSeat(trx, { userId, courseId }))
		.then(
			(claim) => claim.kind,
			(error: unknown) => (error instanceof SeatUnavailableError ? error.reason : `unexpected: ${String(error)}`),
		)
}
