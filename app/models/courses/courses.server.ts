import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely'
import { courseScheduleLine, scheduledSessionsColumns } from '#app/models/sessions/live-sessions.server.ts'
import type { CoursesTable, Database, EnrollmentStatus } from '#db/types.ts'
import { availabilityOf, type CourseWithAvailability, courseDuration, courseOutcomes } from './courses.ts'

/** Enrollment states that occupy a seat (docs/decisions/015); 'inactive' frees it. */
export const SEAT_TAKING_STATUSES = ['active', 'pending', 'completed'] as const satisfies readonly EnrollmentStatus[]

/**
 * The seats taken in the `courses` row of the surrounding query: enrollments
 * that hold a seat, seat holds that have not expired, and waitlist offers that
 * are open (docs/decisions/034: an offered seat is never sold to anyone else).
 * Every capacity reading and check goes through this one expression.
 */
export function takenSeatsExpression(eb: ExpressionBuilder<Database, 'courses'>) {
	const enrolled = eb
		.selectFrom('enrollments')
		.select((sub) => sub.fn.countAll<number>().as('count'))
		.whereRef('enrollments.course_id', '=', 'courses.id')
		.where('enrollments.status', 'in', SEAT_TAKING_STATUSES)
	const held = eb
		.selectFrom('seat_holds')
		.select((sub) => sub.fn.countAll<number>().as('count'))
		.whereRef('seat_holds.course_id', '=', 'courses.id')
		.where('seat_holds.expires_at', '>', sql<Date>`now()`)
	const offered = eb
		.selectFrom('waitlist_entries')
		.select((sub) => sub.fn.countAll<number>().as('count'))
		.whereRef('waitlist_entries.course_id', '=', 'courses.id')
		.where('waitlist_entries.status', '=', 'offered')
		.where('waitlist_entries.offer_expires_at', '>', sql<Date>`now()`)
	return eb.cast<number>(eb(eb(enrolled, '+', held), '+', offered), 'integer')
}

function coursesWithTakenSeats(db: Kysely<Database>) {
	return db
		.selectFrom('courses')
		.selectAll('courses')
		.select((eb) => [takenSeatsExpression(eb).as('taken'), ...scheduledSessionsColumns(eb)])
}

function toCourseWithAvailability(
	row: Selectable<CoursesTable> & { taken: number; sessionCount: string | number | null; firstSessionAt: Date | string | null },
): CourseWithAvailability {
	const sessionCount = Number(row.sessionCount ?? 0)
	const scheduled = Boolean(row.schedule_weekday && row.schedule_start_time && row.schedule_minutes)
	return {
		id: row.id,
		title: row.title,
		description: row.description,
		startDate: row.start_date,
		endDate: row.end_date,
		capacity: row.capacity,
		registrationFee: row.registration_fee,
		published: row.published,
		createdAt: new Date(row.created_at).toISOString(),
		updatedAt: new Date(row.updated_at).toISOString(),
		outcomes: courseOutcomes(row.outcomes),
		duration: courseDuration({ durationText: row.duration_text, scheduledWeeks: scheduled && sessionCount > 0 ? sessionCount : null }),
		schedule: courseScheduleLine(row),
		...availabilityOf({ capacity: row.capacity, taken: Number(row.taken) }),
	}
}

function newestFirst(db: Kysely<Database>) {
	return coursesWithTakenSeats(db).orderBy('courses.created_at', 'desc').orderBy('courses.id', 'desc')
}

/**
 * Which courses a reader may see: drafts (docs/decisions/045) only when asked for, by the admin's
 * screens; everything public and every student's view reads published courses only.
 */
export type CourseVisibility = { drafts?: boolean }

/** The published courses (and drafts when asked for), newest first, with their availability, in a single query. */
export async function listCoursesWithAvailability(db: Kysely<Database>, { drafts = false }: CourseVisibility = {}) {
	const rows = await newestFirst(db)
		.$if(!drafts, (query) => query.where('courses.published', '=', true))
		.execute()
	return rows.map(toCourseWithAvailability)
}

/**
 * One page of the courses, drafts among them, newest first, with their availability (docs/decisions/038): the admin's grid;
 * `taughtBy` keeps the courses an instructor teaches only (their grid, docs/decisions/056). A page past
 * the last shows the last one, so a link kept from before a deletion still lands on courses.
 */
export async function listCoursesPage(
	db: Kysely<Database>,
	{ page, perPage, taughtBy }: { page: number; perPage: number; taughtBy?: string },
) {
	const taught = db
		.selectFrom('course_staff')
		.select('course_staff.course_id')
		.where('course_staff.user_id', '=', taughtBy ?? '')
	const { total } = await db
		.selectFrom('courses')
		.select((eb) => eb.fn.countAll<string>().as('total'))
		.$if(taughtBy !== undefined, (query) => query.where('courses.id', 'in', taught))
		.executeTakeFirstOrThrow()
	const pageCount = Math.max(1, Math.ceil(Number(total) / perPage))
	const shown = Math.min(Math.max(1, page), pageCount)
	const rows = await newestFirst(db)
		.$if(taughtBy !== undefined, (query) => query.where('courses.id', 'in', taught))
		.limit(perPage)
		.offset((shown - 1) * perPage)
		.execute()
	return { courses: rows.map(toCourseWithAvailability), page: shown, pageCount, total: Number(total) }
}

/** The course with its availability; null when there is none, or it is a draft and drafts were not asked for. */
export async function getCourseWithAvailability(db: Kysely<Database>, id: number, { drafts = false }: CourseVisibility = {}) {
	const row = await coursesWithTakenSeats(db)
		.where('courses.id', '=', id)
		.$if(!drafts, (query) => query.where('courses.published', '=', true))
		.executeTakeFirst()
	return row ? toCourseWithAvailability(row) : null
}
