import { type Kysely, sql } from 'kysely'
import { initials } from '#app/utils/misc.ts'
import type { Database, Role } from '#db/types.ts'

export type Contact = {
	id: string
	name: string
	avatar: string
	role: Role
	unreadCount: number
}

export type ContactOwner = { id: string; storedRole: Role | null }

const CONTACTS_LIMIT = 100
export const UNKNOWN_USER = 'Unknown User'
/** The sender of a message whose author deleted their account (docs/decisions/067). */
export const DELETED_USER = 'Deleted user'

/**
 * The enrolments that make someone a student of a course for messaging (docs/decisions/058): the
 * current cohort and its alumni; a pending or removed enrolment does not.
 */
const COURSE_STUDENT_STATUSES = ['active', 'completed'] as const

/** The instructors of the courses a student is enrolled in, as an array for `= any(...)`. */
function instructorsOfStudent(studentId: string) {
	return sql<string[]>`array(
		select course_staff.user_id from course_staff
		inner join enrollments on enrollments.course_id = course_staff.course_id
		where enrollments.user_id = ${studentId} and enrollments.status in (${sql.join(COURSE_STUDENT_STATUSES)})
	)`
}

/** The students enrolled in the courses an instructor teaches, as an array for `= any(...)`. */
function studentsOfInstructor(instructorId: string) {
	return sql<string[]>`array(
		select enrollments.user_id from enrollments
		inner join course_staff on course_staff.course_id = enrollments.course_id
		where course_staff.user_id = ${instructorId} and enrollments.status in (${sql.join(COURSE_STUDENT_STATUSES)})
	)`
}

function contactsQuery(db: Kysely<Database>, owner: ContactOwner & { storedRole: Role }) {
	return (
		db
			// Each side of the conversations is read from its own index alone (an admin has tens of
			// thousands of messages); a message with a receiver is never an announcement.
			.with('partners', (qb) =>
				qb
					.selectFrom((eb) =>
						eb
							.selectFrom('messages')
							.select(['receiver_id as id', (sub) => sub.fn.max('created_at').as('last_at')])
							.where('sender_id', '=', owner.id)
							.where('receiver_id', 'is not', null)
							.groupBy('receiver_id')
							.unionAll(
								eb
									.selectFrom('messages')
									.select(['sender_id as id', (sub) => sub.fn.max('created_at').as('last_at')])
									.where('receiver_id', '=', owner.id)
									.groupBy('sender_id'),
							)
							.as('sides'),
					)
					.select(['sides.id', (eb) => eb.fn.max('sides.last_at').as('last_at')])
					.groupBy('sides.id'),
			)
			.with('unread', (qb) =>
				qb
					.selectFrom('messages')
					.select(['sender_id as id', (eb) => eb.fn.countAll<number>().as('n')])
					.where('receiver_id', '=', owner.id)
					.where('read', '=', false)
					.groupBy('sender_id'),
			)
			.selectFrom('profiles')
			.leftJoin('partners', 'partners.id', 'profiles.id')
			.leftJoin('unread', 'unread.id', 'profiles.id')
			.where('profiles.id', '<>', owner.id)
			.where((eb) => {
				const partner = eb('profiles.id', '=', eb.fn.any(sql<string[]>`array(${eb.selectFrom('partners').select('partners.id')})`))
				// Whom a user may message (docs/decisions/058): a student reaches every admin and the
				// instructors of their courses, an instructor the students of their courses, an admin
				// every student; anyone reaches the people they already exchanged direct messages with.
				// Each side is an index lookup on profiles (a bitmap OR); an admin reaches every
				// student, so reading all profiles once is cheaper than checking each against a list
				// of thousands of partners.
				if (owner.storedRole === 'student') {
					return eb.or([eb('profiles.role', '=', 'admin'), eb('profiles.id', '=', eb.fn.any(instructorsOfStudent(owner.id))), partner])
				}
				if (owner.storedRole === 'instructor') {
					return eb.or([
						eb.and([eb('profiles.role', '=', 'student'), eb('profiles.id', '=', eb.fn.any(studentsOfInstructor(owner.id)))]),
						partner,
					])
				}
				return eb.or([eb('partners.id', 'is not', null), eb('profiles.role', '=', 'student')])
			})
	)
}

/**
 * The contact list with unread counts, in one query however many contacts
 * there are: people with unread messages first, then the most recent
 * conversations, then by name.
 */
export async function listContacts(
	db: Kysely<Database>,
	owner: ContactOwner,
	{ search, limit = CONTACTS_LIMIT }: { search?: string; limit?: number } = {},
): Promise<{ contacts: Contact[]; hasMore: boolean }> {
	const { storedRole } = owner
	if (!storedRole) return { contacts: [], hasMore: false }
	let query = contactsQuery(db, { ...owner, storedRole })
		.select(['profiles.id', 'profiles.name', 'profiles.role', sql<number>`coalesce(unread.n, 0)`.as('unreadCount')])
		.orderBy(sql`coalesce(unread.n, 0) > 0`, 'desc')
		.orderBy('partners.last_at', (ob) => ob.desc().nullsLast())
		.orderBy(sql`lower(profiles.name)`)
		.orderBy('profiles.id')
		.limit(limit + 1)
	const term = search?.trim()
	if (term) query = query.where('profiles.name', 'ilike', `%${escapeLike(term)}%`)
	const rows = await query.execute()
	return {
		contacts: rows.slice(0, limit).map(toContact),
		hasMore: rows.length > limit,
	}
}

/** The server's check behind every send: may `owner` message `otherId`? */
export async function canMessage(db: Kysely<Database>, owner: ContactOwner, otherId: string) {
	const { storedRole } = owner
	if (!storedRole || otherId === owner.id || !isUuid(otherId)) return false
	const row = await contactsQuery(db, { ...owner, storedRole })
		.select('profiles.id')
		.where('profiles.id', '=', otherId)
		.executeTakeFirst()
	return Boolean(row)
}

/** One contact (for a thread header), or null when `owner` may not message them. */
export async function getContact(db: Kysely<Database>, owner: ContactOwner, otherId: string): Promise<Contact | null> {
	const { storedRole } = owner
	if (!storedRole || otherId === owner.id || !isUuid(otherId)) return null
	const row = await contactsQuery(db, { ...owner, storedRole })
		.select(['profiles.id', 'profiles.name', 'profiles.role', sql<number>`coalesce(unread.n, 0)`.as('unreadCount')])
		.where('profiles.id', '=', otherId)
		.executeTakeFirst()
	return row ? toContact(row) : null
}

function toContact(row: { id: string; name: string; role: Role | null; unreadCount: number }): Contact {
	return {
		id: row.id,
		name: row.name.trim() || UNKNOWN_USER,
		avatar: initials(row.name),
		role: row.role ?? 'student',
		unreadCount: Number(row.unreadCount),
	}
}

function isUuid(value: string) {
	return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
}

function escapeLike(term: string) {
	return term.replace(/[\\%_]/g, (character) => `\\${character}`)
}
