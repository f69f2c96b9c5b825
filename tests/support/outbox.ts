/** The mail the app queued, read back from the outbox by address and the start of its subject. */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

function mailQuery(db: Kysely<Database>, address: string, subjectStart: string) {
	return db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body', 'html_body'])
		.where('to_address', '=', address)
		.where('subject', 'like', `${subjectStart}%`)
		.orderBy('id')
}

/** Every mail queued for an address whose subject starts with `subjectStart`, oldest first. */
export function mailsStartingWith(db: Kysely<Database>, address: string, subjectStart: string) {
	return mailQuery(db, address, subjectStart).execute()
}

/** The oldest such mail; throws when there is none. */
export function mailStartingWith(db: Kysely<Database>, address: string, subjectStart: string) {
	return mailQuery(db, address, subjectStart).executeTakeFirstOrThrow()
}
