import { type Kysely, type RawBuilder, sql } from 'kysely'
import { type StaffViewer, taughtBy } from '#app/models/courses/course-staff.server.ts'
import type { Database } from '#db/types.ts'
import { moneyEvents, rangeBounds } from './money-events.server.ts'
import type { CourseFigures, OverviewFigures, OverviewRange, PeriodMoney, PlanBalance, SessionAttendance } from './overview.ts'

/*
 * The overview's figures (issue 43, docs/decisions/065), each section one statement whatever the
 * number of courses, payments or sessions. What counts where, so that an export can add up to it:
 * - paid, discounts and refunded are the money events of `money-events.server.ts`, the ones the
 *   payments export lists line by line: paid is what they received (gross − discount);
 * - outstanding is an instalment scheduled or failed of a plan still running, dated by its due day;
 * - an enrolment counts from its `enrollment_date` unless it is still pending.
 * Dates are days in `timeZone`; a period is a calendar month or an ISO week (from Monday).
 */

export type OverviewInput = OverviewRange & { timeZone: string; now?: Date }

/** Money is the admin's (docs/decisions/056, 065): an instructor gets their courses' other figures only. */
export async function getOverview(db: Kysely<Database>, viewer: StaffViewer, input: OverviewInput): Promise<OverviewFigures> {
	const now = input.now ?? new Date()
	const [enrolments, money, planBalance, courses, sessions] = await Promise.all([
		enrolmentsByPeriod(db, viewer, input),
		viewer.isAdmin ? moneyByPeriod(db, viewer, input) : null,
		viewer.isAdmin ? planBalanceOf(db, viewer, input.timeZone, now) : null,
		courseFigures(db, viewer, input),
		sessionAttendance(db, viewer, input, now),
	])
	const { from, to, group } = input
	return {
		range: { from, to, group },
		periods: enrolments.map((period, index) => ({ ...period, money: money?.[index] ?? null })),
		planBalance,
		courses,
		sessions,
	}
}

/** The range's days as SQL: each period's first day, and whether a local day falls in the range. */
function rangeSql(input: OverviewInput) {
	const { from, to, group, timeZone } = input
	const { start, end } = rangeBounds(input)
	return {
		periods: sql`select gs::date as start from generate_series(date_trunc(${group}, ${from}::timestamp), ${to}::timestamp, ${`1 ${group}`}::interval) as gs`,
		/** The period a moment falls in, by the day it is where the viewer is. */
		periodOf: (moment: RawBuilder<unknown>) => sql`date_trunc(${group}, ${moment} at time zone ${timeZone})::date`,
		/** Compared as an instant, so an index on the moment's column can serve it. */
		within: (moment: RawBuilder<unknown>) => sql`(${moment} >= ${start} and ${moment} < ${end})`,
	}
}

async function enrolmentsByPeriod(db: Kysely<Database>, viewer: StaffViewer, input: OverviewInput) {
	const range = rangeSql(input)
	const when = sql`e.enrollment_date`
	const { rows } = await sql<{ start: string; enrolments: number }>`
		with periods as (${range.periods}),
		made as (
			select ${range.periodOf(when)} as start, count(*)::int as enrolments
			from enrollments e
			where e.status <> 'pending' and ${range.within(when)} and ${taughtBy(viewer, sql.ref('e.course_id'))}
			group by 1
		)
		select to_char(periods.start, 'YYYY-MM-DD') as start, coalesce(made.enrolments, 0) as enrolments
		from periods left join made using (start)
		order by periods.start`.execute(db)
	return rows
}

async function moneyByPeriod(db: Kysely<Database>, viewer: StaffViewer, input: OverviewInput): Promise<PeriodMoney[]> {
	const range = rangeSql(input)
	const instalmentPaidAt = sql`i.paid_at`
	const { rows } = await sql<{ received: number; discount: number; refunded: number; collected: number; outstanding: number }>`
		with periods as (${range.periods}),
		money as (
			select ${range.periodOf(sql`e.at`)} as start,
				sum(e.gross_cents - e.discount_cents) as received, sum(e.discount_cents) as discount, sum(e.refund_cents) as refunded
			from ${moneyEvents(input)} as e
			where ${taughtBy(viewer, sql.ref('e.course_id'))}
			group by 1
		),
		collected as (
			select ${range.periodOf(instalmentPaidAt)} as start, sum(i.amount_cents) as collected
			from plan_instalments i
			join plan_purchases pp on pp.id = i.plan_purchase_id
			where i.status in ('paid', 'paid_outside') and ${range.within(instalmentPaidAt)} and ${taughtBy(viewer, sql.ref('pp.course_id'))}
			group by 1
		),
		outstanding as (
			select date_trunc(${input.group}, i.due_on::timestamp)::date as start, sum(i.amount_cents) as outstanding
			from plan_instalments i
			join plan_purchases pp on pp.id = i.plan_purchase_id
			where i.status in ('scheduled', 'failed') and pp.status in ('active', 'past_due', 'paused')
				and i.due_on between ${input.from}::date and ${input.to}::date and ${taughtBy(viewer, sql.ref('pp.course_id'))}
			group by 1
		)
		select
			coalesce(money.received, 0)::bigint as received,
			coalesce(money.discount, 0)::bigint as discount,
			coalesce(money.refunded, 0)::bigint as refunded,
			coalesce(collected.collected, 0)::bigint as collected,
			coalesce(outstanding.outstanding, 0)::bigint as outstanding
		from periods
		left join money using (start)
		left join collected using (start)
		left join outstanding using (start)
		order by periods.start`.execute(db)
	return rows.map((row) => ({
		paidCents: row.received,
		discountCents: row.discount,
		refundedCents: row.refunded,
		netCents: row.received - row.refunded,
		planCollectedCents: row.collected,
		planOutstandingCents: row.outstanding,
	}))
}

/** What plans still running have left to pay, and how much of it is overdue (failed, or due before today). */
async function planBalanceOf(db: Kysely<Database>, viewer: StaffViewer, timeZone: string, now: Date): Promise<PlanBalance> {
	const { rows } = await sql<{ outstanding: number; overdue: number; plans: number }>`
		select
			coalesce(sum(i.amount_cents), 0)::bigint as outstanding,
			coalesce(sum(i.amount_cents) filter (where i.status = 'failed' or i.due_on < (${now}::timestamptz at time zone ${timeZone})::date), 0)::bigint as overdue,
			count(distinct pp.id)::int as plans
		from plan_instalments i
		join plan_purchases pp on pp.id = i.plan_purchase_id
		where i.status in ('scheduled', 'failed') and pp.status in ('active', 'past_due', 'paused') and ${taughtBy(viewer, sql.ref('pp.course_id'))}`.execute(
		db,
	)
	const row = rows[0]!
	return { outstandingCents: row.outstanding, overdueCents: row.overdue, plans: row.plans }
}

/**
 * The published courses with something to say about the range, soonest first: those whose dates meet
 * it (a course without dates always does), and those that took enrolments or made offers in it (a
 * cohort selling its seats before it starts).
 */
async function courseFigures(db: Kysely<Database>, viewer: StaffViewer, input: OverviewInput): Promise<CourseFigures[]> {
	const range = rangeSql(input)
	const offeredAt = sql`w.offered_at`
	const enrolledAt = sql`e.enrollment_date`
	const { rows } = await sql<CourseFigures>`
		select c.id, c.title, c.start_date as "startDate", c.end_date as "endDate", c.capacity,
			coalesce(en.seats_taken, 0)::int as "seatsTaken",
			coalesce(wl.waiting, 0)::int as waiting,
			coalesce(wl.offers_made, 0)::int as "offersMade",
			coalesce(wl.offers_taken, 0)::int as "offersTaken",
			coalesce(wl.offers_expired, 0)::int as "offersExpired",
			coalesce(wl.offers_open, 0)::int as "offersOpen",
			coalesce(en.enrolled, 0)::int as enrolled,
			coalesce(en.completed, 0)::int as completed,
			coalesce(en.active, 0)::int as active,
			coalesce(en.ended, 0)::int as ended
		from courses c
		left join lateral (
			select
				count(*) filter (where e.status in ('active', 'pending', 'completed')) as seats_taken,
				count(*) filter (where e.status <> 'pending') as enrolled,
				count(*) filter (where e.status = 'completed') as completed,
				count(*) filter (where e.status = 'active') as active,
				count(*) filter (where e.status = 'inactive') as ended
			from enrollments e where e.course_id = c.id
		) en on true
		left join lateral (
			select
				count(*) filter (where w.status = 'waiting') as waiting,
				count(*) filter (where ${range.within(offeredAt)}) as offers_made,
				count(*) filter (where ${range.within(offeredAt)} and w.status in ('claimed', 'enrolled')) as offers_taken,
				count(*) filter (where ${range.within(offeredAt)} and w.status = 'expired') as offers_expired,
				count(*) filter (where ${range.within(offeredAt)} and w.status = 'offered') as offers_open
			from waitlist_entries w where w.course_id = c.id
		) wl on true
		where c.published
			and ${taughtBy(viewer, sql.ref('c.id'))}
			and (
				(
					(c.start_date is null or c.start_date <= ${input.to}::date)
					and (coalesce(c.end_date, c.start_date) is null or coalesce(c.end_date, c.start_date) >= ${input.from}::date)
				)
				or exists (select 1 from enrollments e where e.course_id = c.id and e.status <> 'pending' and ${range.within(enrolledAt)})
				or wl.offers_made > 0
			)
		order by c.start_date nulls last, c.title, c.id`.execute(db)
	return rows
}

/** Each live session held in the range (not cancelled, started by now), with its roster's statuses. */
async function sessionAttendance(db: Kysely<Database>, viewer: StaffViewer, input: OverviewInput, now: Date): Promise<SessionAttendance[]> {
	const range = rangeSql(input)
	const startsAt = sql`s.starts_at`
	const { rows } = await sql<Omit<SessionAttendance, 'startsAt'> & { startsAt: Date }>`
		select s.id, s.course_id as "courseId", c.title as "courseTitle", s.week_number as "weekNumber", s.starts_at as "startsAt",
			count(a.user_id) filter (where a.status = 'present')::int as present,
			count(a.user_id) filter (where a.status = 'late')::int as late,
			count(a.user_id) filter (where a.status = 'absent')::int as absent,
			count(a.user_id) filter (where a.status = 'excused')::int as excused,
			greatest(roster.size - count(a.user_id), 0)::int as unrecorded
		from live_sessions s
		join courses c on c.id = s.course_id
		cross join lateral (
			select count(*) as size from enrollments e where e.course_id = s.course_id and e.status in ('active', 'completed')
		) roster
		left join attendance a on a.live_session_id = s.id
		where s.status = 'scheduled' and s.starts_at <= ${now} and ${range.within(startsAt)} and ${taughtBy(viewer, sql.ref('c.id'))}
		group by s.id, c.id, roster.size
		order by c.title, c.id, s.starts_at`.execute(db)
	return rows.map((row) => ({ ...row, startsAt: row.startsAt.toISOString() }))
}
