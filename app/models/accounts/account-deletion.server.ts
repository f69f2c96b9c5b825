import { type Kysely, sql, type Transaction } from 'kysely'
import { removeStoredFiles } from '#app/models/courses/courses-admin.server.ts'
import { endPlace } from '#app/models/enrollment/waitlist.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { type FileStorage, getStorage } from '#app/services/storage/index.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import { verifyPassword } from '#app/utils/password.server.ts'
import type { Database } from '#db/types.ts'
import type { DeletionRefusal } from './account-deletion.ts'
import { storedFilesOf } from './users.server.ts'

/** Plans still being paid for: the school has a say before such an account goes. */
const UNFINISHED_PLAN_STATUSES = ['pending', 'active', 'past_due', 'paused'] as const

export type AccountDeletion =
	| { status: 'deleted'; filesRemoved: boolean }
	/** The account was already gone (a second submit of the same form). */
	| { status: 'gone' }
	| { status: 'refused'; reason: DeletionRefusal }

type Person = { id: string; email: string; name: string }

/**
 * A person deletes their own account (docs/decisions/067), in one transaction under the user row's
 * lock, with their password checked there so two submits delete once. Refused for the last admin
 * and while the school still has business with them (an active or pending enrolment, an unfinished
 * instalment plan, an open checkout). Their places in line are given up the way leaving does (an
 * offered seat goes to the next person). Messages they sent to others stay, from "Deleted user";
 * payment records stay without their name and e-mail; every other row naming them goes or loses
 * the name. Stored files go after commit.
 */
export async function deleteOwnAccount(
	db: Kysely<Database>,
	{ userId, password }: { userId: string; password: string },
	storage: FileStorage = getStorage(),
): Promise<AccountDeletion> {
	const outcome = await transaction(db, async (trx) => {
		const person = await trx
			.selectFrom('users')
			.innerJoin('profiles', 'profiles.id', 'users.id')
			.select(['users.id', 'users.email', 'users.password_hash', 'profiles.name', 'profiles.role'])
			.where('users.id', '=', userId)
			.forUpdate('users')
			.executeTakeFirst()
		if (!person) return { status: 'gone' } as const
		if (!(await verifyPassword(person.password_hash, password))) return refused('wrong-password')
		if (person.role === 'admin' && !(await anotherAdminExists(trx, userId))) return refused('last-admin')
		if (await hasBusinessWithSchool(trx, userId)) return refused('enrolled')

		const email = person.email.trim().toLowerCase()
		await leaveWaitlists(trx, userId, email)
		const { keys } = await storedFilesOf(trx, userId)
		const courses = await trx.selectFrom('enrollments').select('course_id').where('user_id', '=', userId).execute()
		await anonymise(trx, { id: userId, email, name: person.name })
		await trx.deleteFrom('users').where('id', '=', userId).execute()
		await recordAudit(trx, { actorId: null, action: 'account.delete', entity: 'user', details: { role: person.role ?? 'student' } })
		for (const courseId of new Set(courses.map((row) => row.course_id))) await publishEvent(trx, { type: 'enrollment.changed', courseId })
		return { status: 'deleted', keys } as const
	})
	if (outcome.status !== 'deleted') return outcome
	// Everything under messages/{userId}/ was attached by this person; those attachments' rows are gone.
	const filesRemoved = await removeStoredFiles(db, storage, outcome.keys, [`messages/${userId}/`])
	return { status: 'deleted', filesRemoved }
}

function refused(reason: DeletionRefusal) {
	return { status: 'refused', reason } as const
}

/** Locks the admins' profiles, so two last admins deleting at once cannot both go. */
async function anotherAdminExists(trx: Transaction<Database>, userId: string) {
	const admins = await trx.selectFrom('profiles').select('id').where('role', '=', 'admin').orderBy('id').forUpdate().execute()
	return admins.some((admin) => admin.id !== userId)
}

async function hasBusinessWithSchool(trx: Transaction<Database>, userId: string) {
	const row = await trx
		.selectNoFrom((eb) => [
			eb
				.exists(eb.selectFrom('enrollments').select('id').where('user_id', '=', userId).where('status', 'in', ['active', 'pending']))
				.as('enrolled'),
			eb
				.exists(eb.selectFrom('plan_purchases').select('id').where('user_id', '=', userId).where('status', 'in', UNFINISHED_PLAN_STATUSES))
				.as('paying'),
			eb
				.exists(eb.selectFrom('seat_holds').select('id').where('user_id', '=', userId).where('expires_at', '>', new Date()))
				.as('checkingOut'),
		])
		.executeTakeFirstOrThrow()
	return Boolean(row.enrolled || row.paying || row.checkingOut)
}

function ofPerson(userId: string, email: string) {
	return sql<boolean>`(user_id = ${userId} or lower(email) = ${email})`
}

/** Each live place ends as if the person left the line, so an offered seat is offered on; the rows go afterwards. */
async function leaveWaitlists(trx: Transaction<Database>, userId: string, email: string) {
	const places = await trx
		.selectFrom('waitlist_entries')
		.select(['id', 'course_id'])
		.where(ofPerson(userId, email))
		.where('status', 'in', ['waiting', 'offered'])
		.orderBy('course_id')
		.execute()
	for (const place of places) await endPlace(trx, place.course_id, place.id, 'left')
}

/** The string as it appears inside a JSON document, quotes included. */
function jsonString(value: string) {
	return JSON.stringify(value)
}

/**
 * What the cascade of the users row does not reach: rows that name the person by e-mail or name
 * rather than by id, and the rows that are kept (messages sent, payments, the audit log).
 */
async function anonymise(trx: Transaction<Database>, person: Person) {
	const { id, email, name } = person
	const sent = trx.selectFrom('messages').select('id').where('sender_id', '=', id)
	await trx.deleteFrom('message_attachments').where('message_id', 'in', sent).execute()
	await trx.updateTable('messages').set({ sender_id: null }).where('sender_id', '=', id).execute()

	// Accounting keeps payments; who paid is forgotten (the provider keeps its own records).
	await trx
		.updateTable('registration_payments')
		.set({ customer_email: '', user_id: null })
		.where(sql<boolean>`(user_id = ${id} or lower(customer_email) = ${email})`)
		.execute()
	await trx
		.updateTable('test_checkout_sessions')
		.set({ customer_email: '', metadata: sql<string>`metadata - 'userId'` })
		.where(sql<boolean>`(metadata->>'userId' = ${id} or lower(customer_email) = ${email})`)
		.execute()

	await trx.deleteFrom('waitlist_entries').where(ofPerson(id, email)).execute()
	await trx.deleteFrom('contact_submissions').where(sql<boolean>`lower(email) = ${email}`).execute()
	await trx.deleteFrom('registration_drafts').where(ofPerson(id, email)).execute()
	await trx
		.deleteFrom('email_outbox')
		.where(
			sql<boolean>`(lower(to_address) = ${email}
				or strpos(lower(subject || ' ' || text_body || ' ' || coalesce(html_body, '')), ${email}) > 0
				or strpos(subject || ' ' || text_body || ' ' || coalesce(html_body, ''), ${name}) > 0)`,
		)
		.execute()
	await trx.deleteFrom('rate_limits').where(sql<boolean>`(strpos(key, ${id}) > 0 or strpos(lower(key), ${email}) > 0)`).execute()

	// The audit log stays the school's record of what happened, without whom it happened to.
	await sql`
		update audit_log
		set entity_id = nullif(entity_id, ${id}),
			details = replace(replace(replace(details::text, ${jsonString(id)}, '"Deleted user"'), ${jsonString(email)}, '"Deleted user"'), ${jsonString(name)}, '"Deleted user"')::jsonb
		where entity_id = ${id} or strpos(lower(details::text), ${email}) > 0 or strpos(details::text, ${id}) > 0 or strpos(details::text, ${jsonString(name)}) > 0
	`.execute(trx)
	// A meeting report's preview kept the roster it was read against and the rows it could not match.
	await sql`
		update attendance_imports
		set plan = jsonb_set(jsonb_set(plan, '{students}', coalesce(
				(select jsonb_agg(student) from jsonb_array_elements(plan->'students') student where student->>'userId' <> ${id}), '[]'::jsonb)),
			'{unmatched}', coalesce(
				(select jsonb_agg(row) from jsonb_array_elements(plan->'unmatched') row where lower(row->>'email') <> ${email} and row->>'name' <> ${name}), '[]'::jsonb))
		where strpos(plan::text, ${id}) > 0 or strpos(lower(plan::text), ${email}) > 0 or strpos(plan::text, ${jsonString(name)}) > 0
	`.execute(trx)
}
